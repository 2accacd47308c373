import VarlinkCore

/// Turns interfaces into the Swift declarations that mirror them, each declared once: a Swift
/// name reached from several places (`AppReply`, `OwnerOnlyError`) must describe the same fields.
struct DeclarationCollector {
    private let names: SwiftNames
    /// Declarations by name, with the interface file that writes them.
    private var declared: [String: (declaration: SwiftDeclaration, file: Int)] = [:]
    /// Names in the order first reached, per interface file.
    private(set) var order: [[String]] = []
    private var file = 0
    /// The names file's paths that named something.
    private(set) var usedPaths: Set<String> = []

    init(names: SwiftNames) {
        self.names = names
    }

    /// The declaration called `name`.
    func declaration(_ name: String) -> SwiftDeclaration? { declared[name]?.declaration }

    /// Adds every member of `idl`, as the next interface file.
    mutating func add(_ idl: VarlinkIDL) throws(CodegenError) {
        file = order.count
        order.append([])
        for member in idl.members {
            let path = idl.name + "." + member.name
            switch member.kind {
            case .type:
                guard let type = idl.types[member.name] else { continue }
                let doc = member.doc.withoutAnnotations.nonEmpty ?? ["`\(path)` on the wire."]
                let limits = try ByteLimitAnnotation.all(in: member.doc, member: path)
                _ = try declare(type, path: path, name: swiftName(path, else: member.name), doc: doc, limits: limits, in: idl)
            case .method:
                guard let method = idl.method(member.name) else { continue }
                let inputRule = method.input.isEmpty ? "NoParameters" : member.name + "Parameters"
                let limits = try ByteLimitAnnotation.all(in: member.doc, member: path)
                _ = try declare(.structure(method.input), path: path + ".in", name: swiftName(path + ".in", else: inputRule),
                                doc: [], limits: limits, role: method.input.isEmpty ? nil : "Parameters of", in: idl)
                _ = try declare(.structure(method.output), path: path + ".out",
                                name: swiftName(path + ".out", else: member.name + "Reply"),
                                doc: [], limits: [], role: "Reply of", in: idl)
            case .error:
                guard let fields = idl.errors[member.name] else { continue }
                _ = try declare(.structure(fields), path: path, name: swiftName(path, else: member.name + "Error"),
                                doc: member.doc, limits: [], role: "Parameters of", in: idl)
            }
        }
    }

    private mutating func swiftName(_ path: String, else rule: String) -> String {
        if names.paths.contains(path) { usedPaths.insert(path) }
        return names.name(path, else: rule)
    }

    /// Declares the struct or enum `type` as `name` (once), with what it holds inline, and returns the name.
    private mutating func declare(
        _ type: VarlinkIDL.TypeSpec, path: String, name: String, doc: [String], limits: [ByteLimitAnnotation],
        role: String? = nil, in idl: VarlinkIDL
    ) throws(CodegenError) -> String {
        let shape: SwiftDeclaration.Shape
        switch type {
        case .enumeration(let cases):
            shape = .enumeration(cases)
        case .structure(let fields):
            var swiftFields: [SwiftField] = []
            for field in fields {
                let swiftType = try self.swiftType(field.type, path: path + "." + field.name,
                                                   owner: name, field: field, in: idl)
                swiftFields.append(SwiftField(name: field.name, type: swiftType, idlType: field.type, doc: field.doc))
            }
            for limit in limits {
                guard let field = fields.first(where: { $0.name == limit.field }),
                      ByteLimitAnnotation.strings(of: field.name, typed: field.type) != nil
                else { throw CodegenError("\(path): @limit \(limit.field) names no string field") }
            }
            shape = .structure(swiftFields)
        default:
            throw CodegenError("\(path): only a struct or an enum can be declared, not \(type)")
        }
        // A method's input or output path ends in .in or .out; the summary names the method.
        let member = path.hasSuffix(".in") ? String(path.dropLast(3)) : path.hasSuffix(".out") ? String(path.dropLast(4)) : path
        let servedBy = role == nil ? [] : [member]
        let declaration = SwiftDeclaration(name: name, shape: shape, doc: doc, limits: limits, role: role, servedBy: servedBy)
        if let existing = declared[name] {
            guard existing.declaration.shape == shape, existing.declaration.limits == limits else {
                throw CodegenError("\(path): the Swift name \(name) is already given to different fields")
            }
            // One type serves several methods (or errors): its summary names each.
            declared[name]?.declaration.servedBy += servedBy
            return name
        }
        declared[name] = (declaration, file)
        order[file].append(name)
        return name
    }

    /// The Swift spelling of `type`, declaring what it holds inline (named `owner` + the field).
    private mutating func swiftType(
        _ type: VarlinkIDL.TypeSpec, path: String, owner: String, field: VarlinkIDL.Field, in idl: VarlinkIDL
    ) throws(CodegenError) -> String {
        switch type {
        case .bool: return "Bool"
        case .int: return "Int"
        case .float: return "Double"
        case .string: return "String"
        case .object: throw CodegenError("\(path): object has no Swift type here")
        case .optional(let inner): return try swiftType(inner, path: path, owner: owner, field: field, in: idl) + "?"
        case .array(let inner): return "[" + (try swiftType(inner, path: path, owner: owner, field: field, in: idl)) + "]"
        case .map(let inner): return "[String: " + (try swiftType(inner, path: path, owner: owner, field: field, in: idl)) + "]"
        case .named(let typeName):
            guard idl.types[typeName] != nil else { throw CodegenError("\(path): no type \(typeName)") }
            return swiftName(idl.name + "." + typeName, else: typeName)
        case .enumeration, .structure:
            let name = swiftName(path, else: owner + field.name.capitalizedFirst)
            let doc = ["The values of `\(path)`."]
            return try declare(type, path: path, name: name, doc: doc, limits: [], in: idl)
        }
    }
}

extension Array {
    /// The array, or nil when empty.
    var nonEmpty: Self? { isEmpty ? nil : self }
}
