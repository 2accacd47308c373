/// Runs `body` with `resource`, then `close`s it whether `body` returned or threw: the one
/// shape of every test rig's `with`, since `defer` cannot await.
public func withClosing<Resource, Result>(
    _ resource: Resource, close: (Resource) async -> Void, _ body: (Resource) async throws -> Result
) async throws -> Result {
    let result: Result
    do {
        result = try await body(resource)
    } catch {
        await close(resource)
        throw error
    }
    await close(resource)
    return result
}
