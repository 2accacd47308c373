/// Reads IPTC IIM records (the "IPTC-NAA" format): the Caption-Abstract and the character set it is in.
enum IPTCRecords {
    /// Records past this many are not read: a real block has a few dozen.
    static let maxRecords = 4096

    /// 2:120 Caption-Abstract as UTF-8: UTF-8 when 1:90 declares it (ESC % G), else Latin-1.
    static func caption<Bytes: Collection<UInt8>>(in records: Bytes) -> [UInt8]? where Bytes.Index == Int {
        var caption: Bytes.SubSequence?
        var utf8 = false
        var position = records.startIndex
        var steps = 0
        while steps < maxRecords, position + 5 <= records.endIndex, records[position] == 0x1C {
            steps += 1
            let record = records[position + 1], dataset = records[position + 2]
            var length = Int(records[position + 3]) << 8 | Int(records[position + 4])
            var dataStart = position + 5
            if length & 0x8000 != 0 {
                // Extended dataset: the low bits say how many bytes hold the real length.
                let lengthBytes = length & 0x7FFF
                guard lengthBytes <= 4, dataStart + lengthBytes <= records.endIndex else { break }
                length = 0
                for byte in records[dataStart..<(dataStart + lengthBytes)] { length = length << 8 | Int(byte) }
                dataStart += lengthBytes
            }
            guard length <= records.endIndex - dataStart else { break }
            let data = records[dataStart..<(dataStart + length)]
            if record == 1, dataset == 90 {
                utf8 = data.elementsEqual([0x1B, 0x25, 0x47])
            } else if record == 2, dataset == 120, caption == nil {
                caption = data
            }
            position = dataStart + length
        }
        guard let caption else { return nil }
        let text = caption.prefix { $0 != 0 }
        if utf8 { return TextDecoding.validUTF8(text) }
        return TextDecoding.latin1ToUTF8(text)
    }
}
