import ServiceLifecycle

/// Ends authorization requests the owner left unanswered, at their deadlines, until shutdown.
struct AuthorizationService: Service {
    let authorizer: Authorizer

    func run() async throws {
        await cancelWhenGracefulShutdown {
            await authorizer.deadlines.run { app, deadline in await authorizer.expire(app, deadline: deadline) }
        }
    }
}
