// The varlink certification (varlink.tests.test_certification) on the Varlink module, both ways:
//   varlink-certification server --socket PATH      serves org.varlink.certification on PATH
//   varlink-certification client --address unix:PATH runs the certification client against PATH
// Exit status: 0 when the client passed (or the server was stopped by a signal), 1 on failure,
// 2 on a usage error.

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif
import Logging
import Varlink

/// Writes `line` to standard output at once, unbuffered, so a killed server's output is
/// complete up to its last line and the test can wait for a line as it is written.
func say(_ line: String) {
    writeLine(line, to: STDOUT_FILENO)
}

/// Prints why the program cannot go on and exits with `status`.
func fail(_ message: String, status: Int32 = 1) -> Never {
    writeLine("varlink-certification: \(message)", to: STDERR_FILENO)
    exit(status)
}

/// Writes all of `line` and a newline with write(2), retrying short writes.
private func writeLine(_ line: String, to descriptor: Int32) {
    var bytes = Array((line + "\n").utf8)[...]
    while !bytes.isEmpty {
        let written = bytes.withUnsafeBytes { write(descriptor, $0.baseAddress, $0.count) }
        if written < 0, errno == EINTR { continue }
        guard written > 0 else { return }
        bytes = bytes.dropFirst(written)
    }
}

/// The socket path of a `unix:PATH[;mode=…]` varlink address.
func socketPath(of address: String) -> String? {
    guard address.hasPrefix("unix:") else { return nil }
    let path = address.dropFirst("unix:".count).prefix { $0 != ";" }
    // An abstract socket (`@name`) cannot be reached through a path.
    guard !path.isEmpty, !path.hasPrefix("@") else { return nil }
    return String(path)
}

/// Serves the certification interface on `path` until the process is killed.
func serve(path: String) async throws {
    var logger = Logger(label: "varlink-certification")
    logger.logLevel = .notice
    let service = try CertificationServer()
    let server = VarlinkServer(
        listener: .path(path),
        interfaces: [service.interface],
        info: VarlinkServiceInfo(vendor: "photod", product: "varlink-certification", version: "1", url: "https://varlink.org"),
        logger: logger
    )
    try await server.start()
    // The test waits for this line: the socket accepts connections from here on.
    say("listening on unix:\(path)")
    try await server.run()
}

/// Connects to `address` and runs the certification client.
func runClient(address: String) async throws {
    guard let path = socketPath(of: address) else {
        fail("only unix:PATH addresses are supported, not \(address)", status: 2)
    }
    say("Connecting to \(address)")
    let client = try await VarlinkClient.connect(unixSocketPath: path)
    do {
        try await CertificationClient(client: client).run()
    } catch {
        await client.close()
        throw error
    }
    await client.close()
}

LoggingSystem.bootstrap(StreamLogHandler.standardError)

do {
    switch Array(CommandLine.arguments.dropFirst()) {
    case let arguments where arguments.count == 3 && arguments[0] == "server" && arguments[1] == "--socket":
        try await serve(path: arguments[2])
    case let arguments where arguments.count == 3 && arguments[0] == "client" && arguments[1] == "--address":
        try await runClient(address: arguments[2])
    default:
        fail("usage: varlink-certification server --socket PATH | client --address unix:PATH", status: 2)
    }
} catch {
    fail("\(error)")
}
