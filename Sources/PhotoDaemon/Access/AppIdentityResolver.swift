/// Decides a client's app id from its uid and /proc, by the rules in the README ("How photod knows who is asking").
enum AppIdentityResolver {
    /// Pure: decides from /proc contents already read (`exe` is the raw link target, `cmdline` the raw file).
    static func identify(uid: UInt32, cgroup: String, exe: String, cmdline: [UInt8], cwd: String?) -> AppIdentity {
        let (executable, deleted) = AppIdentityPath.strippingDeleted(exe)
        /// An identity of this process with `id`.
        func make(_ id: String, _ source: AppIdentity.Source) -> AppIdentity {
            AppIdentity(id: id, uid: uid, source: source, executable: executable, executableDeleted: deleted)
        }
        if let applicationID = applicationID(fromCgroup: cgroup) {
            return make("app:" + applicationID, .appUnit)
        }
        let plain = make("exe:" + executable, .executable)
        guard let interpreter = AppIdentityInterpreter(executable: executable) else { return plain }
        switch interpreter.target(arguments: arguments(fromCmdline: cmdline).dropFirst()) {
        case .script(let path):
            guard let absolute = AppIdentityPath.absolute(path, cwd: cwd) else { return plain }
            return make("script:\(executable):\(absolute)", .script)
        case .module(let name):
            return make("module:\(executable):\(name)", .module)
        case .noScript:
            return plain
        }
    }

    /// Parses one cgroup file's text; the ApplicationID of the app unit, or nil.
    static func applicationID(fromCgroup text: String) -> String? {
        var unified: [Substring] = []
        var legacy: [Substring] = []
        for line in text.split(whereSeparator: \.isNewline) {
            let fields = line.split(separator: ":", maxSplits: 2, omittingEmptySubsequences: false)
            guard fields.count == 3 else { continue }
            if fields[0] == "0" && fields[1].isEmpty {
                unified.append(fields[2])
            } else if fields[1].split(separator: ",").contains("name=systemd") {
                legacy.append(fields[2])
            }
        }
        for path in unified + legacy {
            let unit = path.split(separator: "/").last { component in
                component.hasPrefix("app-") && (component.hasSuffix(".scope") || component.hasSuffix(".service"))
            }
            if let unit, let applicationID = AppIdentityUnitName.applicationID(fromUnit: unit) {
                return applicationID
            }
        }
        return nil
    }

    /// Splits a NUL-separated /proc/PID/cmdline into arguments (argv[0] first).
    static func arguments(fromCmdline bytes: [UInt8]) -> [String] {
        guard !bytes.isEmpty else { return [] }
        var parts = bytes.split(separator: 0, omittingEmptySubsequences: false)
        if bytes.last == 0 { parts.removeLast() }
        return parts.map { String(decoding: $0, as: UTF8.self) }
    }
}
