#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
#if canImport(Glibc)
import Glibc
#endif
import VarlinkCodegen

// varlink-codegen [--check] [INTERFACES [OUTPUT]]: writes OUTPUT/<interface>.swift for each
// INTERFACES/*.varlink, naming by INTERFACES/SwiftNames.txt (defaults: PhotoAPI's folders).
// With --check it writes nothing and fails when a file differs, for CI and scripts.

var arguments = Array(CommandLine.arguments.dropFirst())
let check = arguments.first == "--check"
if check { arguments.removeFirst() }
let interfaces = arguments.first ?? "Sources/PhotoAPI/interface"
let output = arguments.dropFirst().first ?? "Sources/PhotoAPI/Generated"

func fail(_ message: String) -> Never {
    let line = Array("varlink-codegen: \(message)\n".utf8)
    _ = line.withUnsafeBytes { write(STDERR_FILENO, $0.baseAddress, $0.count) }
    exit(1)
}

func read(_ path: String) -> String {
    guard let data = FileManager.default.contents(atPath: path) else { fail("cannot read \(path)") }
    return String(decoding: data, as: UTF8.self)
}

let fileNames: [String]
do {
    fileNames = try FileManager.default.contentsOfDirectory(atPath: interfaces).filter { $0.hasSuffix(".varlink") }.sorted()
} catch {
    fail("cannot list \(interfaces): \(error)")
}
let files: [(String, String)]
do {
    files = try Codegen.generate(fileNames.map { Codegen.Interface(fileName: $0, text: read(interfaces + "/" + $0)) },
                                 names: read(interfaces + "/" + Codegen.namesFileName))
} catch {
    fail(error.description)
}
var stale: [String] = []
for (name, text) in files {
    let path = output + "/" + name
    guard FileManager.default.contents(atPath: path) != Data(text.utf8) else { continue }
    stale.append(path)
    if !check {
        do {
            try FileManager.default.createDirectory(atPath: output, withIntermediateDirectories: true)
            try Data(text.utf8).write(to: URL(fileURLWithPath: path))
        } catch {
            fail("cannot write \(path): \(error)")
        }
    }
}
if check, !stale.isEmpty { fail("stale: \(stale.joined(separator: ", ")); run swift run varlink-codegen") }
print(stale.isEmpty ? "up to date" : "wrote \(stale.joined(separator: ", "))")
