/// Why an APP argument names no single app.
enum AppMatchError: Error, Sendable, Equatable {
    /// No app has the query as its id or as whole components of it.
    case unknown(query: String)
    /// Several apps match; the candidates are sorted.
    case ambiguous(query: String, candidates: [AppKey])
}

/// Finds the app an owner means by APP on the command line: its exact id, or whole components
/// of it that name one app (`calendar.sh` or `bin/calendar.sh` for
/// `script:/usr/bin/bash:/home/ann/bin/calendar.sh`, never for `…/calendar.sh.d/x.py`).
///
/// Never a substring: the owner grants what they named, not whatever happens to contain it.
enum AppMatcher {
    /// The app named by `query` (of user `uid` when given): an exact id wins, else the only
    /// app whose id holds the query's components as a run of whole components.
    static func match(_ query: String, uid: UInt32? = nil, among apps: [AppKey]) -> Result<AppKey, AppMatchError> {
        let mine = Set(apps.filter { uid == nil || $0.uid == uid })
        let exact = mine.filter { $0.id == query }
        let parts = components(of: query)
        // A query without components ("", "/", ":") would name nothing in particular.
        let candidates = !exact.isEmpty || parts.isEmpty
            ? exact.sorted()
            : mine.filter { contains(components(ofID: $0.id), run: parts) }.sorted()
        switch candidates.count {
        case 0: return .failure(.unknown(query: query))
        case 1: return .success(candidates[0])
        default: return .failure(.ambiguous(query: query, candidates: candidates))
        }
    }

    /// An id's components after its kind (`app:`, `exe:`, `script:`, `module:`, `uid:`), which
    /// names no app: folders, file names and the application id, split at `/` and `:`.
    static func components(ofID id: String) -> [Substring] {
        guard let colon = id.firstIndex(of: ":") else { return components(of: id) }
        return components(of: id[id.index(after: colon)...])
    }

    /// The non-empty pieces of `text` between `/` and `:`.
    static func components(of text: some StringProtocol) -> [Substring] {
        Substring(text).split { $0 == "/" || $0 == ":" }
    }

    /// Whether `run` appears in `components` as consecutive elements.
    private static func contains(_ components: [Substring], run: [Substring]) -> Bool {
        guard run.count <= components.count else { return false }
        return (0...(components.count - run.count)).contains { start in
            components[start..<(start + run.count)].elementsEqual(run)
        }
    }
}
