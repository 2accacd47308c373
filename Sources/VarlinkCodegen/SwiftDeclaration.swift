import VarlinkCore

/// One Swift type the generator writes: a struct of fields or a string enum.
struct SwiftDeclaration: Equatable {
    /// What it is made of.
    enum Shape: Equatable {
        case structure([SwiftField])
        case enumeration([String])
    }

    var name: String
    var shape: Shape
    /// Its `///` lines.
    var doc: [String]
    /// The byte limits of its string fields (the IDL's `@limit` lines), in field order.
    var limits: [ByteLimitAnnotation]
    /// What it carries, for its summary ("Reply of"), and of which methods or errors.
    var role: String?
    /// The qualified names of the methods or errors it serves, one per use.
    var servedBy: [String]

    /// The `///` lines: what it carries, then the IDL's comment; or a default for a struct
    /// that carries nothing (`NoParameters`).
    var documentation: [String] {
        guard let role, let first = servedBy.first else {
            return doc.nonEmpty ?? ["Parameters of a method that takes none."]
        }
        // The first one's interface is said once: its other members go by their own names.
        let interface = first.split(separator: ".").dropLast().joined(separator: ".") + "."
        let others = servedBy.dropFirst().map { "`" + ($0.hasPrefix(interface) ? String($0.dropFirst(interface.count)) : $0) + "`" }
        let list = others.isEmpty ? "" : others.count == 1 ? " and " + others[0]
            : ", " + others.dropLast().joined(separator: ", ") + " and " + (others.last ?? "")
        return ["\(role) `\(first)`\(list)."] + doc
    }
}

/// One stored property of a generated struct.
struct SwiftField: Equatable {
    /// The wire name, which is also the Swift name.
    var name: String
    /// The Swift type, as written (`[Asset]`, `String?`).
    var type: String
    /// The IDL type, for the limits (which need to know how to reach the strings).
    var idlType: VarlinkIDL.TypeSpec
    /// The comment lines the IDL gives the field.
    var doc: [String]

    /// The memberwise initializer's default: none for a value the caller must give.
    var defaultValue: String? {
        switch idlType {
        case .optional: "nil"
        case .array: "[]"
        case .map: "[:]"
        case .bool: "false"
        default: nil
        }
    }
}
