/// What an app may see: nothing, everything, or a selection of assets and groups.
enum Visibility: Sendable, Equatable {
    case none
    case all
    /// Groups by the names of their descriptions; `fallback`: the fallback group as well.
    case selection(assets: Set<String>, groups: Set<String>, fallback: Bool = false)
}
