#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import ArgumentParser
import PhotoAPI
import PhotoClient

/// The global options' values (`GlobalOptions`), as plain data: what every command needs to
/// reach photod and to shape its output, whether ArgumentParser parsed the line or
/// `QuickCommand` did.
struct GlobalSettings: Sendable {
    var socket: String?
    var json = false
    var full = false
    var noLegend = false
    var noPager = false
    var asApp = false
    var host: String?
    var serviceUser: String?
    /// Whether photod's replies are waited for on the calling thread (`VarlinkClient.connect`'s
    /// `onCallingThread`): set by `QuickCommand`, whose commands make their calls one after
    /// another with nothing else to run, and no timeout.
    var callsOnCallingThread = false

    /// Connects to the daemon named by `--socket` or the defaults, trusting a server that runs
    /// as this user or as the service user. photod takes photoctl for the owner unless it acts
    /// for the program that ran it (`--as-app`, or `forCaller` for `photoctl request`).
    func connect(forCaller: Bool = false) async throws -> PhotoClient {
        switch try endpoint(forCaller: forCaller) {
        case .remote(let host, let arguments, let environment):
            return try PhotoClient.connect(host: host, remoteArguments: arguments, environment: environment)
        case .local(let socket, let serviceUser, let runtimeDirectory):
            return try await PhotoClient.connect(socketPath: socket, serviceUser: serviceUser,
                                                 runtimeDirectory: runtimeDirectory, onCallingThread: callsOnCallingThread)
        }
    }

    /// Connects a client for originals (file descriptors) to the same daemon, trusted and
    /// declared the same way as `connect`; over `--host`, one that receives originals as bytes.
    func originals(forCaller: Bool = false) throws -> OriginalsClient {
        switch try endpoint(forCaller: forCaller) {
        case .remote(let host, let arguments, let environment):
            return try OriginalsClient.connect(host: host, remoteArguments: arguments, environment: environment)
        case .local(let socket, let serviceUser, let runtimeDirectory):
            return try OriginalsClient.connect(socketPath: socket, serviceUser: serviceUser,
                                               runtimeDirectory: runtimeDirectory)
        }
    }

    /// Where photod is for this command line: on `--host` through ssh, or at a local socket.
    private enum Endpoint {
        case remote(host: String, arguments: [String], environment: [String: String])
        case local(socket: String, serviceUser: UInt32?, runtimeDirectory: String)
    }

    /// The endpoint `connect` and `originals` reach; for a local one, photoctl's role (owner or
    /// app) is declared first for photod to read from this process.
    private func endpoint(forCaller: Bool) throws -> Endpoint {
        let environment = StartEnvironment.variables
        if let remote = remoteHost(in: environment) {
            RemoteHost.note(remote)
            return .remote(host: remote, arguments: bridgeArguments(forCaller: forCaller), environment: environment)
        }
        try ProcessRole.declare(asApp || forCaller ? .app : .owner)
        let paths = DefaultPaths(environment: environment)
        return .local(socket: socket ?? paths.socket, serviceUser: try serviceUserID(in: environment),
                      runtimeDirectory: paths.runtimeDirectory)
    }

    /// `photoctl bridge`'s socket: photod's, found and trusted as `connect` finds it, with the
    /// role (`--as-app`) declared for photod to read from this process.
    func bridgeSocket() throws -> Int32 {
        try ProcessRole.declare(asApp ? .app : .owner)
        return try BridgeSocket.open(socketPath: socket ?? DefaultPaths(environment: StartEnvironment.variables).socket,
                                     serviceUser: serviceUserID(in: StartEnvironment.variables))
    }

    /// `--host`, else `$PHOTOD_HOST`; nil (or empty): photod on this machine.
    var remoteHost: String? { remoteHost(in: StartEnvironment.variables) }

    /// `remoteHost`, with `$PHOTOD_HOST` read from `environment`.
    private func remoteHost(in environment: [String: String]) -> String? {
        (host.flatMap { $0.isEmpty ? nil : $0 }) ?? environment["PHOTOD_HOST"].flatMap { $0.isEmpty ? nil : $0 }
    }

    /// What the far side's photoctl runs: the bridge, acting as the app when this photoctl
    /// would (`--as-app`, `photoctl request`), so photod there sees the same role. The far
    /// side finds its own socket; `--socket` and `--service-user` name this machine's.
    private func bridgeArguments(forCaller: Bool) -> [String] {
        ["photoctl"] + (asApp || forCaller ? ["--as-app"] : []) + ["bridge"]
    }

    /// The uid of `--service-user` (else `$PHOTOD_SERVICE_USER`), nil when neither is given.
    private func serviceUserID(in environment: [String: String]) throws -> UInt32? {
        let variable = environment["PHOTOD_SERVICE_USER"].flatMap { $0.isEmpty ? nil : $0 }
        guard let name = serviceUser ?? variable else { return nil }
        guard let uid = PhotoClient.userID(named: name) else {
            throw ValidationError("no user named \"\(name)\" (--service-user or PHOTOD_SERVICE_USER)")
        }
        return uid
    }
}
