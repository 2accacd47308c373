/// What the owner should read before allowing an app whose id stands for more than one program.
///
/// An interpreter or shell without a script (`exe:/usr/bin/python3`, `exe:/usr/bin/bash`) is
/// whatever code it was given: allowing it allows every program run that way by this user. An
/// `exe-unknown` id is every process of another user that photod may not look into.
enum AppWarning {
    /// The warning for `id`, or nil when the id names one program.
    static func text(for id: String) -> String? {
        if id.hasPrefix("uid:") && id.hasSuffix(":exe-unknown") {
            let uid = id.dropFirst("uid:".count).dropLast(":exe-unknown".count)
            return "this is not one program but every program of user \(uid) that photod cannot look into; "
                + "allowing it allows all of them"
        }
        guard id.hasPrefix("exe:") else { return nil }
        let path = String(id.dropFirst("exe:".count))
        guard let interpreter = AppIdentityInterpreter(executable: path) else { return nil }
        let name = path.split(separator: "/").last.map(String.init) ?? path
        switch interpreter {
        case .shell:
            return "this is the shell \(name), not one program: allowing it allows every command typed into "
                + "\(name) or run with \(name) -c, in any terminal of this user"
        case .python, .perl, .ruby, .node:
            return "this is \(name) running code without a script file (typed in, or given with -c or -e), not "
                + "one program: allowing it allows every program run that way with \(name) by this user"
        }
    }
}
