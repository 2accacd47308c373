extension JSONReader {
    /// Passes over one value of any kind (a member no field reads), checking its grammar.
    public mutating func skipValue() throws(JSONReadError) {
        try skip(depth: 0)
    }

    /// Where the value that comes next starts and ends, once passed over.
    public mutating func skippedRange() throws(JSONReadError) -> Range<Int> {
        _ = peek()
        let start = index
        try skip(depth: 0)
        return start..<index
    }

    /// Recursion is bounded by `maximumDepth`, so a hostile message cannot exhaust the stack.
    private mutating func skip(depth: Int) throws(JSONReadError) {
        switch peek() {
        case UInt8(ascii: "\""):
            try skipString()
        case UInt8(ascii: "{"):
            guard depth < Self.maximumDepth else { throw error("containers nested too deep") }
            index += 1
            if peek() == UInt8(ascii: "}") {
                index += 1
                return
            }
            repeat {
                try skipString()
                try expect(UInt8(ascii: ":"), ": after a key")
                try skip(depth: depth + 1)
            } while try more(UInt8(ascii: "}"))
        case UInt8(ascii: "["):
            guard depth < Self.maximumDepth else { throw error("containers nested too deep") }
            guard try firstElement() else { return }
            repeat {
                try skip(depth: depth + 1)
            } while try nextElement()
        case UInt8(ascii: "t"), UInt8(ascii: "f"):
            _ = try readBool()
        case UInt8(ascii: "n"):
            _ = try readNull()
        default:
            _ = try number()
        }
    }
}
