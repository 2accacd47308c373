import Checksums

/// Replaces or removes the IPTC Caption-Abstract (2:120) inside a Photoshop APP13 payload, leaving
/// every other resource and dataset byte for byte.
enum IPTCDescriptionPatch {
    /// What opens the APP13 payload.
    static let signature: [UInt8] = Array("Photoshop 3.0".utf8) + [0]
    /// ESC % G: the 1:90 CodedCharacterSet value that declares UTF-8.
    private static let utf8Declaration: [UInt8] = [0x1B, 0x25, 0x47]

    /// One dataset: where it starts and ends, and its data.
    private struct Dataset {
        var record: UInt8
        var number: UInt8
        var whole: Range<Int>
        var data: Range<Int>
    }

    /// The payload with the caption set (nil: removed); nil when its IPTC block has no caption.
    static func apply(_ payload: [UInt8], _ text: [UInt8]?) throws(DescriptionEditError) -> [UInt8]? {
        let resources = payload[signature.count...]
        guard let block = PhotoshopResources.find(PhotoshopResources.iptcID, in: resources) else { return nil }
        let iim = Array(block)
        let datasets = try parse(iim)
        guard datasets.contains(where: { $0.record == 2 && $0.number == 120 }) else { return nil }

        var edited: [UInt8] = []
        var position = 0
        var captionWritten = false
        var declared = false
        let declaresUTF8 = datasets.contains { $0.record == 1 && $0.number == 90 && iim[$0.data].elementsEqual(utf8Declaration) }
        // Latin-1 is what readers assume without a declaration; text beyond it needs UTF-8 declared.
        let latin1 = declaresUTF8 ? nil : text.flatMap(latin1Bytes)
        let needsDeclaration = text != nil && !declaresUTF8 && latin1 == nil
        // Declaring UTF-8 reinterprets every dataset: only safe when the others are plain ASCII.
        if needsDeclaration, datasets.contains(where: { !($0.record == 2 && $0.number == 120) && iim[$0.data].contains { $0 >= 0x80 } }) {
            throw .malformedIPTC(reason: "text beyond Latin-1, and other Latin-1 datasets a UTF-8 declaration would change")
        }
        for dataset in datasets {
            if needsDeclaration, !declared, dataset.record >= 2 {
                declared = true
                // 1:90 goes before the first dataset of record 2, as records must ascend.
                edited += iim[position..<dataset.whole.lowerBound] + header(1, 90, utf8Declaration.count) + utf8Declaration
                position = dataset.whole.lowerBound
            }
            guard dataset.record == 2, dataset.number == 120 else { continue }
            edited += iim[position..<dataset.whole.lowerBound]
            position = dataset.whole.upperBound
            // Only one caption stays: readers take the first, and a second would keep the old text.
            if let text, !captionWritten {
                let bytes = latin1 ?? text
                edited += header(2, 120, bytes.count) + bytes
                captionWritten = true
            }
        }
        edited += iim[position...]
        var result = try replacing(block, with: edited, in: payload)
        updateDigest(in: &result, old: payload, oldIPTC: iim, newIPTC: edited)
        return result
    }

    /// Recomputes IPTCDigest (resource 0x0425, the MD5 of the IPTC block) when it was current before
    /// the edit, as ExifTool does; a stale digest stays as it was, since it tells readers (Photoshop)
    /// that some other program changed the IPTC, and that is still true.
    private static func updateDigest(in result: inout [UInt8], old: [UInt8], oldIPTC: [UInt8], newIPTC: [UInt8]) {
        guard let digest = PhotoshopResources.find(PhotoshopResources.iptcDigestID, in: old[signature.count...]),
            digest.count == 16, digest.elementsEqual(MD5.digest(oldIPTC)),
            let slot = PhotoshopResources.find(PhotoshopResources.iptcDigestID, in: result[signature.count...]),
            slot.count == 16
        else { return }
        result.replaceSubrange(slot.startIndex..<slot.endIndex, with: MD5.digest(newIPTC))
    }

    /// The IIM datasets in order, refused when one runs past the block (then it could not be rewritten).
    private static func parse(_ iim: [UInt8]) throws(DescriptionEditError) -> [Dataset] {
        var datasets: [Dataset] = []
        var position = 0
        while position < iim.count, iim[position] == 0x1C {
            guard datasets.count < IPTCRecords.maxRecords, position + 5 <= iim.count else {
                throw .malformedIPTC(reason: "dataset header runs past the block")
            }
            var length = Int(iim[position + 3]) << 8 | Int(iim[position + 4])
            var dataStart = position + 5
            if length & 0x8000 != 0 {
                let lengthBytes = length & 0x7FFF
                guard lengthBytes <= 4, dataStart + lengthBytes <= iim.count else {
                    throw .malformedIPTC(reason: "bad extended length")
                }
                length = iim[dataStart..<(dataStart + lengthBytes)].reduce(0) { $0 << 8 | Int($1) }
                dataStart += lengthBytes
            }
            guard length <= iim.count - dataStart else { throw .malformedIPTC(reason: "dataset runs past the block") }
            datasets.append(Dataset(record: iim[position + 1], number: iim[position + 2],
                                    whole: position..<(dataStart + length), data: dataStart..<(dataStart + length)))
            position = dataStart + length
        }
        return datasets
    }

    /// A standard dataset header; the description limit keeps lengths below the 32,767 it can say.
    private static func header(_ record: UInt8, _ number: UInt8, _ length: Int) -> [UInt8] {
        [0x1C, record, number, UInt8(length >> 8 & 0x7F), UInt8(length & 0xFF)]
    }

    /// The text in ISO 8859-1, or nil when a character is beyond it.
    private static func latin1Bytes(_ text: [UInt8]) -> [UInt8]? {
        var result: [UInt8] = []
        for scalar in String(decoding: text, as: UTF8.self).unicodeScalars {
            guard scalar.value <= 0xFF else { return nil }
            result.append(UInt8(scalar.value))
        }
        return result
    }

    /// The payload with one resource's data replaced and its size field and padding updated.
    private static func replacing(_ data: ArraySlice<UInt8>, with new: [UInt8], in payload: [UInt8]) throws(DescriptionEditError) -> [UInt8] {
        // The size field is the 4 bytes just before the data; the data is padded to an even length.
        let sizeField = data.startIndex - 4
        guard sizeField >= signature.count, let size = UInt32(exactly: new.count) else {
            throw .malformedIPTC(reason: "resource header")
        }
        let oldEnd = min(payload.count, data.endIndex + data.count % 2)
        var result = Array(payload[..<sizeField])
        result += [UInt8(size >> 24), UInt8(size >> 16 & 0xFF), UInt8(size >> 8 & 0xFF), UInt8(size & 0xFF)]
        result += new
        if new.count % 2 == 1 { result.append(0) }
        result += payload[oldEnd...]
        return result
    }
}
