import VarlinkCore

/// The generator: Swift types for varlink interfaces, from their IDL and a names file.
public enum Codegen {
    /// The names file, beside the `.varlink` files it names for.
    public static let namesFileName = "SwiftNames.txt"

    /// One interface to generate: the `.varlink` file's name and text.
    public struct Interface: Sendable {
        /// The file's name (`io.photod.Library.varlink`), for the generated file's header.
        public var fileName: String
        /// The IDL.
        public var text: String

        /// An interface file.
        public init(fileName: String, text: String) {
            self.fileName = fileName
            self.text = text
        }
    }

    /// The Swift file for each interface, by file name (`io.photod.Library.swift`), in the order given.
    /// A type reached from several interfaces is written in the first that reaches it.
    public static func generate(_ interfaces: [Interface], names namesText: String) throws(CodegenError) -> [(String, String)] {
        let names = try SwiftNames(parsing: namesText)
        var collector = DeclarationCollector(names: names)
        var parsed: [VarlinkIDL] = []
        for interface in interfaces {
            do {
                parsed.append(try VarlinkIDL(parsing: interface.text))
            } catch {
                throw CodegenError("\(interface.fileName): \(error)")
            }
            try collector.add(parsed[parsed.count - 1])
        }
        var files: [(String, String)] = []
        for (index, interface) in interfaces.enumerated() {
            let idl = parsed[index]
            let rule = String(idl.name.split(separator: ".").last ?? "") + "Interface"
            let interfaceName = names.name(idl.name, else: rule)
            let declarations = collector.order[index].compactMap(collector.declaration)
            let base = interface.fileName.hasSuffix(".varlink") ? String(interface.fileName.dropLast(".varlink".count)) : interface.fileName
            files.append((base + ".swift", SwiftRenderer.file(
                source: interface.fileName, idl: idl, interfaceName: interfaceName, declarations: declarations)))
        }
        let unused = names.paths.subtracting(collector.usedPaths).subtracting(parsed.map(\.name))
        guard unused.isEmpty else {
            throw CodegenError("names file: no such IDL path: \(unused.sorted().joined(separator: ", "))")
        }
        return files
    }
}
