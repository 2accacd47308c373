/// Counts as English prose writes them, thousands grouped: "11,776". One spelling for photod's
/// systemd status line and photoctl's notes, so the two never show a count differently.
public enum Thousands {
    /// `number` with a comma between each group of three digits: "10,000", "-1,000".
    public static func grouped(_ number: Int) -> String {
        let digits = String(number.magnitude)
        var out = ""
        for (index, digit) in digits.enumerated() {
            if index > 0 && (digits.count - index) % 3 == 0 { out.append(",") }
            out.append(digit)
        }
        return number < 0 ? "-" + out : out
    }
}
