import PhotoAPI
import VarlinkCore

/// The check of debug builds that what this client sends is exactly what photod's IDL
/// declares for the method (no field it does not name, each of its type): the server checks
/// the calls it receives and the replies it sends, and this covers the calls' other side,
/// where an extra field is this client's mistake and not a newer client's.
enum CallCheck {
    /// photod's interfaces, by name, as PhotoAPI embeds them.
    private static let interfaces: [String: VarlinkIDLCheck] = {
        var checks: [String: VarlinkIDLCheck] = [:]
        for text in [InterfaceText.library, InterfaceText.authorization] {
            do {
                let idl = try VarlinkIDL(parsing: text)
                checks[idl.name] = VarlinkIDLCheck(idl)
            } catch {
                VarlinkIDLCheck.report("PhotoAPI's IDL does not parse: \(error)")
            }
        }
        return checks
    }()

    /// Reports parameters of `method` that the IDL does not describe; does nothing in release builds.
    /// `method` is boxed only when the check runs: making the existential had the runtime
    /// instantiate the method's generic type and look up its parameters' conformances, scans of
    /// every conformance record (8% of `photoctl groups`' instructions), before the early return.
    static func check<P: Encodable>(_ method: @autoclosure () -> any MethodDescribing, _ parameters: P) {
        guard VarlinkIDLCheck.isEnabled else { return }
        let method = method()
        guard let check = interfaces[method.interface], let described = check.idl.method(method.name) else {
            return VarlinkIDLCheck.report("\(method.interface).\(method.name) is not in photod's IDL")
        }
        guard let json = try? JSONWire.encodeObject(parameters),
              let mismatch = check.mismatch(parametersJSON: json, described.input, unknownFieldsAllowed: false)
        else { return }
        VarlinkIDLCheck.report("call of \(method.interface).\(method.name): \(mismatch)")
    }
}
