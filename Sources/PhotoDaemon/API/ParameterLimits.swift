import PhotoAPI
import Varlink

/// The byte limits the IDL declares for a call's strings (`# @limit FIELD BYTES`), checked for
/// every method at one place (RouteTable) from the numbers generated into the parameter types.
enum ParameterLimits {
    /// Refuses `parameters` with `InvalidParameter` naming the first field (in IDL order) that
    /// holds a string over its limit; parameters without limits always pass.
    static func check(_ parameters: Any) throws(VarlinkError) {
        guard let limited = parameters as? any ByteLimited, let field = limited.fieldOverByteLimit() else { return }
        throw VarlinkError.invalidParameter(field)
    }
}
