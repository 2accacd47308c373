import CSystemd
import Glibc

/// Appends D-Bus values to an `sd_bus_message` being built (valid only on the bus thread, and
/// only while the message lives). sd-bus's `append` and `read` are variadic, which Swift cannot
/// call, so values go one by one through `append_basic` and containers.
struct BusMessageWriter {
    let message: OpaquePointer

    /// Appends a string (`s`).
    func append(_ value: String) throws(SessionBusError) {
        try check(value.withCString { sd_bus_message_append_basic(message, Self.code("s"), $0) }, "append a string")
    }

    /// Appends an unsigned 32-bit integer (`u`).
    func append(_ value: UInt32) throws(SessionBusError) {
        var copy = value
        try check(sd_bus_message_append_basic(message, Self.code("u"), &copy), "append a uint32")
    }

    /// Appends a signed 32-bit integer (`i`).
    func append(_ value: Int32) throws(SessionBusError) {
        var copy = value
        try check(sd_bus_message_append_basic(message, Self.code("i"), &copy), "append an int32")
    }

    /// Appends an array of strings (`as`).
    func append(_ values: [String]) throws(SessionBusError) {
        try check(sd_bus_message_open_container(message, Self.code("a"), "s"), "open an array")
        for value in values { try append(value) }
        try check(sd_bus_message_close_container(message), "close an array")
    }

    /// Appends an empty dictionary of variants (`a{sv}`), the hints Notify wants even when none apply.
    func appendEmptyHints() throws(SessionBusError) {
        try check(sd_bus_message_open_container(message, Self.code("a"), "{sv}"), "open the hints")
        try check(sd_bus_message_close_container(message), "close the hints")
    }

    /// The C `char` for a one-letter D-Bus type code.
    static func code(_ letter: Unicode.Scalar) -> CChar { CChar(bitPattern: UInt8(letter.value)) }
}

/// Reads D-Bus values from a received `sd_bus_message` (valid only inside the callback that got it).
struct BusMessageReader {
    let message: OpaquePointer

    /// The unique bus name that sent the message (`:1.42`), or "" when the bus did not say.
    var sender: String {
        sd_bus_message_get_sender(message).map { String(cString: $0) } ?? ""
    }

    /// The member (method or signal name), or "".
    var member: String {
        sd_bus_message_get_member(message).map { String(cString: $0) } ?? ""
    }

    /// The error carried by an error reply, or nil for a method return.
    var error: SessionBusError? {
        guard sd_bus_message_is_method_error(message, nil) > 0 else { return nil }
        guard let error = sd_bus_message_get_error(message) else {
            return .errorReply(name: "org.freedesktop.DBus.Error.Failed", message: "")
        }
        return .errorReply(name: error.pointee.name.map { String(cString: $0) } ?? "org.freedesktop.DBus.Error.Failed",
                           message: error.pointee.message.map { String(cString: $0) } ?? "")
    }

    /// Reads a string (`s`).
    func readString() throws(SessionBusError) -> String {
        var value: UnsafePointer<CChar>?
        try check(sd_bus_message_read_basic(message, BusMessageWriter.code("s"), &value), "read a string")
        guard let value else { throw .badReply("a missing string") }
        return String(cString: value)
    }

    /// Reads an unsigned 32-bit integer (`u`).
    func readUInt32() throws(SessionBusError) -> UInt32 {
        var value: UInt32 = 0
        try check(sd_bus_message_read_basic(message, BusMessageWriter.code("u"), &value), "read a uint32")
        return value
    }

    /// Reads an array of strings (`as`).
    func readStrings() throws(SessionBusError) -> [String] {
        try check(sd_bus_message_enter_container(message, BusMessageWriter.code("a"), "s"), "enter an array")
        var values: [String] = []
        while true {
            var value: UnsafePointer<CChar>?
            let read = sd_bus_message_read_basic(message, BusMessageWriter.code("s"), &value)
            try check(read, "read an array element")
            guard read > 0, let value else { break }
            values.append(String(cString: value))
        }
        try check(sd_bus_message_exit_container(message), "leave an array")
        return values
    }
}

/// Throws for a negative sd-bus return value (a negated errno).
private func check(_ result: Int32, _ operation: String) throws(SessionBusError) {
    if result < 0 { throw .failed(operation: operation, errno: -result) }
}
