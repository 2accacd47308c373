import ArgumentParser
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import PhotoAPI
import PhotoClient
import SafeText

/// Photos named on the command line by asset id or by file (`PathArgument`), as ids.
enum AssetArguments {
    /// The ids of `arguments`, in the order given: files are looked up in one call. A file not
    /// in the library is reported and fails the command (the client is closed first).
    static func ids(of arguments: [String], client: PhotoClient) async throws -> [String] {
        let directory = FileManager.default.currentDirectoryPath
        // Each argument's place: an id as given, or which lookup (text or exact bytes) holds its file.
        var texts: [String] = []
        var exact: [[UInt8]] = []
        enum Slot { case id(String), text(Int), bytes(Int) }
        let slots: [Slot] = arguments.map { argument in
            guard PathArgument.isPath(argument) else { return .id(argument) }
            let path = PathArgument.resolve(argument, in: directory)
            if let text = String(validating: path, as: UTF8.self) {
                texts.append(text)
                return .text(texts.count - 1)
            }
            exact.append(path)
            return .bytes(exact.count - 1)
        }
        guard !texts.isEmpty || !exact.isEmpty else { return arguments }
        let lookup = try await client.getAssets(ids: [], paths: texts.isEmpty ? nil : texts,
                                                pathBytes: exact.isEmpty ? nil : exact.map { Data($0).base64EncodedString() })
        guard lookup.missing.isEmpty, lookup.missingPathBytes?.isEmpty ?? true,
              lookup.assets.count == texts.count + exact.count else {
            await client.close()
            Output.escapedError("photoctl: not in the library: \(missingText(lookup))")
            throw ExitCode.failure
        }
        // With nothing missing, the reply holds the text paths' assets in order, then the exact ones'.
        let found = lookup.assets.map(\.id)
        return slots.map { slot in
            switch slot {
            case .id(let id): id
            case .text(let index): found[index]
            case .bytes(let index): found[texts.count + index]
            }
        }
    }

    /// The ids and files a GetAssets reply did not find, escaped for a terminal, space-separated;
    /// a file that is not UTF-8 shows its exact bytes escaped.
    static func missingText(_ reply: GetAssetsReply) -> String {
        let missing = reply.missing.map { SafeText.escaped($0) }
            + (reply.missingPathBytes ?? []).map { SafeText.escaped(bytes: Data(base64Encoded: $0) ?? Data($0.utf8)) }
        return missing.joined(separator: " ")
    }
}
