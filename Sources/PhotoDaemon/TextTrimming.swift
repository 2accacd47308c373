extension StringProtocol {
    /// The text without the characters `isTrimmed` matches at either end, as Foundation's
    /// trimmingCharacters(in:) gives it (FoundationEssentials has none).
    func trimming(where isTrimmed: (Character) -> Bool) -> SubSequence {
        guard let first = firstIndex(where: { !isTrimmed($0) }), let last = lastIndex(where: { !isTrimmed($0) }) else {
            return self[endIndex...]
        }
        return self[first...last]
    }
}

/// `value` with two decimals, rounded, as "%.2f" prints it for the seconds a log line reports.
func twoDecimals(_ value: Double) -> String {
    let hundredths = Int((abs(value) * 100).rounded())
    let fraction = hundredths % 100
    return (value < 0 && hundredths > 0 ? "-" : "") + "\(hundredths / 100)." + (fraction < 10 ? "0" : "") + "\(fraction)"
}
