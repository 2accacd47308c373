import PhotoAPI

/// How `photoctl status` words a polled folder's pace and last pass, one line each under the
/// table (the STATE cell stays short): "/srv/nas: polling every 30 s; last pass 0.42 s over
/// 10,000 files, 12 s ago", and, after a pass over budget, "; next pass in 2 min (the last took
/// over a quarter of the interval)".
enum PollPassText {
    /// One line for each polled root or mount of `roots` that has had a pass, `now` in seconds since 1970.
    static func lines(_ roots: [Root], now: Int) -> [String] {
        roots.flatMap { root -> [String] in
            let own = root.pollInterval.flatMap { interval in
                root.lastPass.map { line(root.path, interval: interval, pass: $0, now: now) }
            }
            let inside = (root.mounts ?? []).compactMap { mount in
                mount.pollInterval.flatMap { interval in
                    mount.lastPass.map { line(mount.path, interval: interval, pass: $0, now: now) }
                }
            }
            return (own.map { [$0] } ?? []) + inside
        }
    }

    /// "PATH: polling every N s; last pass …".
    static func line(_ path: String, interval: Int, pass: PollPass, now: Int) -> String {
        var text = "\(path): polling every \(interval) s; last pass \(seconds(pass.seconds))"
        if let files = pass.files { text += " over \(Thousands.grouped(files)) file\(files == 1 ? "" : "s")" }
        let ended = HumanFormat.instant(pass.ended)
        if let ended { text += ", \(span(max(0, now - ended))) ago" }
        if let delayed = pass.delayedInterval {
            let left = ended.map { $0 + delayed - now } ?? delayed
            let next = left > 0 ? "next pass in \(span(left))" : "next pass due now"
            text += "; \(next) (the last took over a quarter of the interval)"
        }
        return text
    }

    /// A pass's time: "0.42 s" under 10 s (to the hundredth), "12 s" from there.
    static func seconds(_ value: Double) -> String {
        let hundredths = Int((value * 100).rounded())
        guard hundredths < 1000 else { return "\(Int(value.rounded())) s" }
        let fraction = hundredths % 100
        return "\(hundredths / 100).\(fraction < 10 ? "0" : "")\(fraction) s"
    }

    /// A span of time: "45 s" under two minutes, "2 min" under two hours, "3 h" from there.
    static func span(_ seconds: Int) -> String {
        if seconds < 120 { return "\(seconds) s" }
        if seconds < 7200 { return "\(seconds / 60) min" }
        return "\(seconds / 3600) h"
    }
}
