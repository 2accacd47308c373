import Foundation
import PhotoAPI
import Testing
import Varlink
@testable import PhotoDaemon

/// The method table in PhotoAPI, the server's route tables, and the IDL they must both match.
@Suite struct MethodTableTests {
    static let interfaces: [(text: String, methods: [any MethodDescribing])] = [
        (InterfaceText.library, LibraryMethods.all), (InterfaceText.authorization, AuthorizationMethods.all),
    ]

    @Test func theDeclaredMethodsAreExactlyTheInterfacesMethods() throws {
        for (text, methods) in Self.interfaces {
            let idl = try VarlinkIDL(parsing: text)
            #expect(methods.map(\.name).sorted() == idl.methods.map(\.name).sorted())
            #expect(methods.allSatisfy { $0.interface == idl.name })
        }
    }

    /// Every field of a sample built from the IDL (all optionals present) survives decoding into
    /// the Swift type and encoding it again, and the Swift type has no field the IDL lacks.
    @Test func theCodableKeysAreTheIDLsFields() throws {
        for (text, methods) in Self.interfaces {
            let idl = try VarlinkIDL(parsing: text)
            for method in methods {
                let described = try #require(idl.method(method.name))
                for (fields, type) in [(described.input, method.parametersType), (described.output, method.replyType)] {
                    let sample = IDLSample(idl: idl).object(fields)
                    let json = try JSONSerialization.data(withJSONObject: sample)
                    let again = try roundTrip(type, json)
                    #expect(IDLSample.keyPaths(again) == IDLSample.keyPaths(sample), "\(method.name): \(type)")
                    let swiftFields = try Set(Mirror(reflecting: decode(type, json)).children.compactMap(\.label))
                    #expect(swiftFields.isSubset(of: Set(fields.map(\.name))), "\(method.name): \(type) has \(swiftFields)")
                }
            }
        }
    }

    private func decode<T: Codable>(_ type: T.Type, _ json: Data) throws -> T {
        try JSONDecoder().decode(type, from: json)
    }

    private func roundTrip<T: Codable>(_ type: T.Type, _ json: Data) throws -> Any {
        try JSONSerialization.jsonObject(with: JSONEncoder().encode(decode(type, json)))
    }

    @Test func aTableThatMissesOrAddsAMethodIsRefusedNamingIt() throws {
        var table = RouteTable<Void>(interface: LibraryInterface.name, description: InterfaceText.library) { _, _ in }
        table.on(LibraryMethods.status) { _ in throw VarlinkError.invalidParameter("unused") }
        table.on(LibraryMethods.listGroups) { _ in ListGroupsReply(groups: []) }
        table.on(LibraryMethods.listAssets) { _ in ListAssetsReply(assets: [], cursor: nil) }
        table.on(LibraryMethods.getAssets) { _ in GetAssetsReply(assets: [], missing: []) }
        table.on(LibraryMethods.search) { _ in SearchReply(assets: [], cursor: nil) }
        table.stream(LibraryMethods.subscribe) { _ in }
        table.stream(LibraryMethods.requestImage) { _ in }
        table.stream(LibraryMethods.openOriginal) { _ in }
        table.on(LibraryMethods.complete) { _ in CompleteReply(candidates: [], fallback: nil) }
        table.on(LibraryMethods.importPhoto) { _ in ImportReply(id: "", path: "", group: "", fallback: false) }
        table.on(LibraryMethods.setDescription) { _ in SetDescriptionReply(assets: [], failed: []) }
        table.stream(LibraryMethods.pick) { _ in }
        #expect(throws: RouteTableError(interface: LibraryInterface.name, problem: "no handler for Rescan")) {
            try table.check()
        }
        table.on(LibraryMethods.rescan) { _ in RescanReply(scanned: 0, changed: 0) }
        try table.check()
        table.on(VarlinkMethod(LibraryInterface.name, "Bogus", access: .anyApp, NoParameters.self, NoParameters.self)) { _ in
            NoParameters()
        }
        #expect(throws: RouteTableError(
            interface: LibraryInterface.name, problem: "handlers for methods it does not describe: Bogus")) {
            try table.check()
        }
    }
}

/// A JSON value for each IDL type, with every optional field present.
struct IDLSample {
    let idl: VarlinkIDL

    func object(_ fields: [VarlinkIDL.Field]) -> [String: Any] {
        Dictionary(uniqueKeysWithValues: fields.map { ($0.name, value($0.type)) })
    }

    func value(_ type: VarlinkIDL.TypeSpec) -> Any {
        switch type {
        case .bool: return true
        case .int: return 1
        case .float: return 1.5
        case .string: return "AAAA"
        case .object: return [String: Any]()
        case .optional(let inner): return value(inner)
        case .array(let inner): return [value(inner)]
        case .map(let inner): return ["key": value(inner)]
        case .enumeration(let cases): return cases.first ?? ""
        case .structure(let fields): return object(fields)
        case .named(let name): return idl.types[name].map(value) ?? NSNull()
        }
    }

    /// Every key path in a JSON value (array elements share their array's path).
    static func keyPaths(_ json: Any, prefix: String = "") -> Set<String> {
        if let object = json as? [String: Any] {
            return object.reduce(into: Set<String>()) { paths, entry in
                let path = prefix + "." + entry.key
                paths.insert(path)
                paths.formUnion(keyPaths(entry.value, prefix: path))
            }
        }
        if let array = json as? [Any] {
            return array.reduce(into: Set<String>()) { $0.formUnion(keyPaths($1, prefix: prefix + "[]")) }
        }
        return []
    }
}
