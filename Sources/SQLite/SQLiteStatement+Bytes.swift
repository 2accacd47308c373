import CSQLite

// Column reads that make no array of their own for a part of a value: a reconcile pages through
// every indexed file, and each row's path is two columns joined, its id a blob turned to text.
extension SQLiteStatement {
    /// Columns `first` and `second` as one array of bytes, the second's after the first's (a
    /// folder's path and a name), made in one allocation.
    public func blob(_ first: Int32, followedBy second: Int32) -> [UInt8] {
        let firstCount = Int(sqlite3_column_bytes(raw, first))
        let firstPointer = firstCount > 0 ? sqlite3_column_blob(raw, first) : nil
        // Read after the first column's pointer is taken: asking for a column's bytes may convert
        // that column, never another.
        let secondCount = Int(sqlite3_column_bytes(raw, second))
        let secondPointer = secondCount > 0 ? sqlite3_column_blob(raw, second) : nil
        var bytes: [UInt8] = []
        bytes.reserveCapacity(firstCount + secondCount)
        if let firstPointer { bytes.append(contentsOf: UnsafeRawBufferPointer(start: firstPointer, count: firstCount)) }
        if let secondPointer { bytes.append(contentsOf: UnsafeRawBufferPointer(start: secondPointer, count: secondCount)) }
        return bytes
    }

    /// Column `index`, a blob of 1 to 16 bytes, as a big-endian number with its byte count; nil
    /// for any other value (NULL, text, an empty or longer blob).
    public func smallBlob(_ index: Int32) -> (number: UInt128, count: Int)? {
        guard isBlob(index) else { return nil }
        let count = Int(sqlite3_column_bytes(raw, index))
        guard count > 0, count <= 16, let pointer = sqlite3_column_blob(raw, index) else { return nil }
        var number: UInt128 = 0
        for byte in UnsafeRawBufferPointer(start: pointer, count: count) { number = number << 8 | UInt128(byte) }
        return (number, count)
    }
}
