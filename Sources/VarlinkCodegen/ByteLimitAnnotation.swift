import VarlinkCore

/// A `# @limit FIELD BYTES` line in a method's or type's comment: the string field FIELD (or each
/// string of the array FIELD) holds at most BYTES bytes of UTF-8.
struct ByteLimitAnnotation: Equatable {
    static let marker = "@limit"

    var field: String
    var bytes: Int

    /// The annotations among a member's comment lines.
    static func all(in doc: [String], member: String) throws(CodegenError) -> [ByteLimitAnnotation] {
        var limits: [ByteLimitAnnotation] = []
        for line in doc {
            let words = line.split(whereSeparator: \.isWhitespace)
            guard words.first == Substring(marker) else { continue }
            guard words.count == 3, let bytes = Int(words[2]), bytes > 0 else {
                throw CodegenError("\(member): expected \"# \(marker) FIELD BYTES\", found \"#\(line)\"")
            }
            guard !limits.contains(where: { $0.field == words[1] }) else {
                throw CodegenError("\(member): two limits for \(words[1])")
            }
            limits.append(ByteLimitAnnotation(field: String(words[1]), bytes: bytes))
        }
        return limits
    }

    /// The closure that lists the field's strings, for its IDL type; nil for a type that holds none.
    static func strings(of field: String, typed type: VarlinkIDL.TypeSpec) -> String? {
        switch type {
        case .string: "[$0.\(field)]"
        case .optional(.string): "$0.\(field).map { [$0] } ?? []"
        case .array(.string): "$0.\(field)"
        case .optional(.array(.string)): "$0.\(field) ?? []"
        default: nil
        }
    }
}

extension [String] {
    /// Comment lines without the annotations, which the limits' code says again.
    var withoutAnnotations: [String] {
        filter { !$0.drop(while: \.isWhitespace).hasPrefix(ByteLimitAnnotation.marker) }
    }
}
