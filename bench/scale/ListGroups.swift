// The peer for `photoctl groups` as a whole process (bench/scale_bench.py): a Swift program on the
// standard library and Glibc alone, no Foundation, that does the same round trip — connect to
// photod's socket, send io.photod.Library.ListGroups, print the reply — and nothing else.
// Built with `swiftc -O` into .build-bench/ by the benchmark. Usage: ListGroups SOCKET
import Glibc

@main
enum ListGroups {
    static func main() {
        guard CommandLine.arguments.count == 2 else { fail("usage: ListGroups SOCKET") }
        let fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard fd >= 0 else { fail("socket") }
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        let path = Array(CommandLine.arguments[1].utf8)
        guard path.count < MemoryLayout.size(ofValue: address.sun_path) else { fail("socket path too long") }
        withUnsafeMutableBytes(of: &address.sun_path) { raw in
            raw.copyBytes(from: path)
            raw[path.count] = 0
        }
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                connect(fd, $0, socklen_t(MemoryLayout<sockaddr_un>.size))
            }
        }
        guard connected == 0 else { fail("connect") }
        let call = Array(#"{"method":"io.photod.Library.ListGroups","parameters":{}}"#.utf8) + [0]
        guard call.withUnsafeBytes({ send(fd, $0.baseAddress, $0.count, 0) }) == call.count else { fail("send") }
        var reply: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 65536)
        while !reply.contains(0) {
            let count = chunk.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
            guard count > 0 else { fail("recv") }
            reply += chunk[..<count]
        }
        close(fd)
        let message = reply[..<(reply.firstIndex(of: 0) ?? reply.count)]
        guard !message.starts(with: Array(#"{"error""#.utf8)) else { fail(String(decoding: message, as: UTF8.self)) }
        message.withUnsafeBytes { _ = fwrite($0.baseAddress, 1, $0.count, stdout) }
        print()
    }

    static func fail(_ what: String) -> Never {
        fputs("ListGroups: \(what)\n", stderr)
        exit(1)
    }
}
