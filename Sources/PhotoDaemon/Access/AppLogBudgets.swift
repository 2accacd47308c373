import LogLines
import Varlink

/// A `LogBudget` per app and kind of line, so that an app asking in a loop writes a few lines
/// to the journal and a count of the rest, and cannot bury another app's lines.
struct AppLogBudgets: Sendable {
    /// The lines about an app that the app itself can cause.
    enum Kind: Hashable, Sendable {
        case newApp, requested, refused, ended
    }

    /// Lines of one kind one app gets per window...
    static let linesPerWindow = 3
    /// ...and the window.
    static let window: Duration = .seconds(60)

    private var budgets: [AppKey: [Kind: LogBudget]] = [:]

    /// The budget for `kind` lines about `app`. Apps are bounded by the record cap, and
    /// `forget` drops a removed one's.
    mutating func budget(_ kind: Kind, for app: AppKey) -> LogBudget {
        if let budget = budgets[app]?[kind] { return budget }
        let budget = LogBudget(linesPerWindow: Self.linesPerWindow, window: Self.window)
        budgets[app, default: [:]][kind] = budget
        return budget
    }

    /// Drops the budgets of an app photod no longer keeps.
    mutating func forget(_ app: AppKey) {
        budgets[app] = nil
    }
}
