import ArgumentParser
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import PhotoAPI
import PhotoClient

/// Shell completion of the library's names: group names, asset ids, app ids and roots come from
/// photod (`Complete`) as the shell asks photoctl (`photoctl ---completion …`). When photod
/// cannot be reached, or not safely, the shell gets no candidates and nothing is printed: a
/// completion must never put an error message into the command line.
enum LibraryCompletion {
    static let groups = completion(.group)
    static let assets = completion(.asset)
    static let apps = completion(.app)
    static let roots = completion(.root)

    /// How long photoctl waits for photod: a key press must not hang the shell.
    static let timeout: Duration = .milliseconds(500)

    private static func completion(_ kind: CandidateKind) -> CompletionKind {
        .custom { words, _, prefix in
            ShellWord.formatted(candidates(kind, words: words, prefix: ShellWord.unquoted(prefix)),
                                for: CompletionShell.requesting)
        }
    }

    /// photod's candidates of `kind` for `prefix`, asked the way the command line in `words`
    /// would ask (its `--socket`, `--service-user` and `--as-app`); none on any failure. The
    /// fallback group comes as `groups` shows it, "Other (no description)", which is how
    /// photoctl's commands take it.
    static func candidates(_ kind: CandidateKind, words: [String], prefix: String) -> [String] {
        let options = GlobalWords(words)
        let environment = StartEnvironment.variables
        let socket = options.socket ?? DefaultPaths(environment: environment).socket
        let userName = options.serviceUser ?? environment["PHOTOD_SERVICE_USER"].flatMap { $0.isEmpty ? nil : $0 }
        var serviceUser: UInt32?
        if let userName {
            guard let uid = PhotoClient.userID(named: userName) else { return [] }
            serviceUser = uid
        }
        do {
            try ProcessRole.declare(options.asApp ? .app : .owner)
            let reply = try CompletionClient.complete(kind: kind, prefix: prefix, socketPath: socket,
                                                      serviceUser: serviceUser, timeout: timeout)
            let fallback = reply.fallback.map { GroupLabel.text(name: $0, fallback: true) }
            return reply.candidates + [fallback].compactMap { $0 }.filter { $0.hasPrefix(prefix) }
        } catch {
            return []
        }
    }
}

/// The global options on a command line being completed, read from its words as the shell has them.
struct GlobalWords: Equatable {
    var socket: String?
    var serviceUser: String?
    var asApp = false

    init(_ words: [String]) {
        var index = 0
        while index < words.count {
            let word = ShellWord.unquoted(words[index])
            if word == "--" { break }
            if word == "--as-app" { asApp = true }
            for (name, keyPath) in [("--socket", \GlobalWords.socket), ("--service-user", \GlobalWords.serviceUser)] {
                if word == name, index + 1 < words.count {
                    self[keyPath: keyPath] = ShellWord.unquoted(words[index + 1])
                } else if word.hasPrefix(name + "=") {
                    self[keyPath: keyPath] = String(word.dropFirst(name.count + 1))
                }
            }
            index += 1
        }
    }
}
