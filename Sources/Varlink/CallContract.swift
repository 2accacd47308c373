/// What one call must look like by its interface's IDL, for the checks of debug builds (see
/// VarlinkIDLCheck): its parameters where the handler decodes them, and each reply and error
/// as it is sent.
///
/// A call that does not match is the client's mistake: it is answered with InvalidParameter
/// naming the field, as sd-varlink answers it, at the moment the handler decodes the parameters
/// (after the handler's own refusals, as the Codable decoding of a release build would). A
/// reply or error that does not match, or parameters the IDL allows but the handler's type
/// refuses, is this server's mistake, reported loudly.
struct CallContract: Sendable {
    private let check: VarlinkIDLCheck
    private let method: VarlinkIDL.Method
    /// org.varlink.service, whose errors any method may answer with.
    private let service: VarlinkIDLCheck?

    /// The contract of `call` on `interface`; nil when checks are off or the IDL lacks the method.
    init?(_ call: VarlinkCall, interface: VarlinkInterface, service: VarlinkInterface?) {
        guard VarlinkIDLCheck.isEnabled, let idl = interface.idl, let method = idl.method(call.methodName) else { return nil }
        self.check = VarlinkIDLCheck(idl)
        self.method = method
        self.service = service?.idl.map(VarlinkIDLCheck.init)
    }

    /// The first place the call's parameters differ from the method's input (fields it does not
    /// declare are let through, as Codable ignores them), or nil.
    func mismatch(inCall parameters: JSONValue) -> String? {
        check.mismatch(parameters, method.input, unknownFieldsAllowed: true)
    }

    /// Reports parameters that match the IDL yet do not decode as `type`.
    func reportRefused(_ type: Any.Type, _ error: any Error) {
        VarlinkIDLCheck.report("\(qualified) parameters match the IDL but \(type) refuses them: \(error)")
    }

    /// Reports a reply whose parameters are not exactly the method's output.
    func checkReply(_ parametersJSON: [UInt8]) {
        replyMismatch(parametersJSON).map(VarlinkIDLCheck.report)
    }

    /// Where a reply's parameters first differ from the method's output, or nil.
    func replyMismatch(_ parametersJSON: [UInt8]) -> String? {
        check.mismatch(parametersJSON: parametersJSON, method.output, unknownFieldsAllowed: false)
            .map { "reply of \(qualified): \($0)" }
    }

    /// Reports an error the IDL does not allow (see `errorMismatch`).
    func checkError(_ error: VarlinkError) {
        errorMismatch(error).map(VarlinkIDLCheck.report)
    }

    /// Why `error`, of this interface or org.varlink.service, is not as the IDL declares it
    /// (an undeclared name, or other parameters), or nil; other interfaces' errors pass.
    func errorMismatch(_ error: VarlinkError) -> String? {
        // The one error outside every IDL: a handler failed (see VarlinkError.internalError).
        guard error.name != VarlinkError.internalError().name else { return nil }
        let dot = error.name.lastIndex(of: ".") ?? error.name.startIndex
        let interface = String(error.name[..<dot])
        let name = String(error.name[error.name.index(after: dot)...])
        guard let owner = [check, service].compactMap({ $0 }).first(where: { $0.idl.name == interface }) else { return nil }
        guard let fields = owner.idl.errors[name] else {
            return "\(qualified) answered \(error.name), which \(interface) does not declare"
        }
        return owner.mismatch(parametersJSON: error.parametersJSON, fields, unknownFieldsAllowed: false)
            .map { "error \(error.name) of \(qualified): \($0)" }
    }

    private var qualified: String { check.idl.name + "." + method.name }
}
