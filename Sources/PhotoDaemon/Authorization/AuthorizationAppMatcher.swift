/// Why an APP argument names no single app.
enum AppMatchError: Error, Sendable, Equatable {
    /// No app id contains the query.
    case unknown(query: String)
    /// Several app ids contain the query; the candidates are sorted.
    case ambiguous(query: String, candidates: [String])
}

/// Finds the app an owner means by APP on the command line: its full id or any unambiguous part.
enum AppMatcher {
    /// The app named by `query`: an exact id wins, else the only id containing it.
    static func match(_ query: String, among apps: [String]) -> Result<String, AppMatchError> {
        if apps.contains(query) { return .success(query) }
        // An empty part is in every id, so it would pick the only app without naming it.
        guard !query.isEmpty else { return .failure(.unknown(query: query)) }
        let candidates = Set(apps.filter { $0.contains(query) }).sorted()
        switch candidates.count {
        case 0: return .failure(.unknown(query: query))
        case 1: return .success(candidates[0])
        default: return .failure(.ambiguous(query: query, candidates: candidates))
        }
    }
}
