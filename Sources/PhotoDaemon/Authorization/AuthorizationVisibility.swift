/// What an app may see: nothing, everything, or a selection of assets and groups.
enum Visibility: Sendable, Equatable {
    case none
    case all
    case selection(assets: Set<String>, groups: Set<String>)
}
