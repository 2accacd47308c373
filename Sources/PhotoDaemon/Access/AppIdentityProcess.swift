#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
#if canImport(Glibc)
import Glibc
#endif

extension AppIdentityResolver {
    /// Reads /proc/PID/{cgroup,cmdline,cwd,exe,status} under `procRoot` and identifies; refuses a vanished pid.
    ///
    /// cgroup, cmdline and status are readable for every user's process; exe and cwd only for
    /// one photod may ptrace (its own user's). So a process whose exe cannot be read is still
    /// identified when its cgroup names an app unit (another user's desktop app, in a system
    /// service); only when no rule can name it does this fail with `.unreadable(what: "exe")`.
    static func identify(pid: Int32, uid: UInt32, procRoot: String = "/proc") -> Result<AppIdentity, AppIdentityError> {
        let process = AppIdentityProcess(pid: pid, procRoot: procRoot)
        return Result { () throws(AppIdentityError) -> AppIdentity in
            // exe after cmdline (both vanish with the address space) and status last, so a process
            // exiting midway is caught instead of being identified from half-read files.
            let cgroup = try process.text("cgroup")
            let cmdline = try process.bytes("cmdline")
            let cwd = try process.linkIfReadable("cwd")
            let exe = try process.linkIfReadable("exe")
            try process.confirmLive(uid: uid)
            switch exe {
            case .success(let exe):
                return identify(uid: uid, cgroup: cgroup, exe: exe, cmdline: cmdline, cwd: try? cwd.get())
            case .failure(let error):
                guard let applicationID = applicationID(fromCgroup: cgroup) else { throw error }
                return AppIdentity(id: "app:" + applicationID, uid: uid, source: .appUnit, executable: "")
            }
        }
    }
}

/// One process's /proc directory, read with Foundation file APIs; failures become `AppIdentityError`.
struct AppIdentityProcess: Sendable {
    /// The process id.
    let pid: Int32
    /// `<procRoot>/<pid>`.
    let directory: String

    /// The /proc directory of `pid` under `procRoot`.
    init(pid: Int32, procRoot: String) {
        self.pid = pid
        self.directory = procRoot + "/" + String(pid)
    }

    /// A file's bytes (/proc files report size 0, so this reads to the end).
    func bytes(_ name: String) throws(AppIdentityError) -> [UInt8] {
        do {
            return [UInt8](try Data(contentsOf: URL(fileURLWithPath: directory + "/" + name)))
        } catch {
            throw failure(reading: name, error)
        }
    }

    /// A file's text, decoded as UTF-8 (invalid bytes replaced).
    func text(_ name: String) throws(AppIdentityError) -> String {
        String(decoding: try bytes(name), as: UTF8.self)
    }

    /// A symbolic link's target, as the kernel reports it (with " (deleted)" when gone).
    func link(_ name: String) throws(AppIdentityError) -> String {
        do {
            return try FileManager.default.destinationOfSymbolicLink(atPath: directory + "/" + name)
        } catch {
            throw failure(reading: name, error)
        }
    }

    /// A link's target, or the reason it cannot be read (EACCES for another user's process);
    /// throws only when the process is gone.
    func linkIfReadable(_ name: String) throws(AppIdentityError) -> Result<String, AppIdentityError> {
        do {
            return .success(try link(name))
        } catch .processGone(let pid) {
            throw .processGone(pid: pid)
        } catch {
            return .failure(error)
        }
    }

    /// Checks the pid still names a live process of `uid` (not a zombie, not reused by another user).
    func confirmLive(uid: UInt32) throws(AppIdentityError) {
        var state: Character?
        var uids: [UInt32] = []
        for line in try text("status").split(separator: "\n") {
            if line.hasPrefix("State:") {
                state = line.dropFirst(6).first { !$0.isWhitespace }
            } else if line.hasPrefix("Uid:") {
                uids = line.dropFirst(4).split(whereSeparator: \.isWhitespace).compactMap { UInt32($0) }
            }
        }
        if state == "Z" || state == "X" { throw .processGone(pid: pid) }
        guard !uids.isEmpty else { throw .unreadable(pid: pid, what: "status", errno: EINVAL) }
        guard uids.contains(uid) else { throw .processGone(pid: pid) }
    }

    /// The parent's pid, from `status` (`PPid:`).
    func parentPid() throws(AppIdentityError) -> Int32 {
        for line in try text("status").split(separator: "\n") where line.hasPrefix("PPid:") {
            if let pid = Int32(line.dropFirst(5).trimming(where: \.isWhitespace)), pid > 0 { return pid }
        }
        throw .processGone(pid: pid)
    }

    /// ENOENT and ESRCH mean the process is gone; anything else is an unreadable file.
    func failure(reading name: String, _ error: any Error) -> AppIdentityError {
        let code = Self.posixCode(of: error) ?? EIO
        if code == ENOENT || code == ESRCH { return .processGone(pid: pid) }
        return .unreadable(pid: pid, what: name, errno: code)
    }

    /// The errno behind a Foundation file error, if it carries one.
    static func posixCode(of error: any Error) -> Int32? {
        if let posix = error as? POSIXError { return posix.code.rawValue }
        guard let cocoa = error as? CocoaError else { return nil }
        // Foundation's file errors carry the errno as their underlying error (NSUnderlyingErrorKey).
        if let underlying = cocoa.userInfo["NSUnderlyingError"] as? any Error { return posixCode(of: underlying) }
        if cocoa.code == .fileReadNoSuchFile || cocoa.code == .fileNoSuchFile { return ENOENT }
        return nil
    }
}
