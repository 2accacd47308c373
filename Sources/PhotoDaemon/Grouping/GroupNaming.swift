import Store

/// How a group name a client sends picks a group, the same for every method that takes one.
///
/// A name is the group of that description. The fallback group shares no key with any
/// description, so it is asked for by a flag; a client without the flag (an older one) names it
/// by its name, which picks it only while no description group has that name.
extension GroupingRules {
    /// The keys `name` may mean, in the order to try them: the first group that exists (and
    /// that the caller may see) is the one. `fallback`: true, only the fallback group, and only
    /// if `name` is its name; false, only the description group; nil, both, description first.
    func candidateKeys(forName name: String, fallback: Bool?) -> [String] {
        if fallback == true { return namesFallback(name) ? [fallbackKey] : [] }
        var keys: [String] = []
        let key = key(forName: name)
        // Empty after normalization names no description (and the fallback's key is empty).
        if !key.isEmpty { keys.append(key) }
        if fallback == nil && namesFallback(name) { keys.append(fallbackKey) }
        return keys
    }
}
