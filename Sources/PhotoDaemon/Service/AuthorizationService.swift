import ServiceLifecycle

/// Ends authorization requests, change requests and picks the owner left unanswered, at their
/// deadlines, and changes and picks of apps that lose their access, until shutdown.
struct AuthorizationService: Service {
    let authorizer: Authorizer
    let changes: ChangeRequests
    let picks: PickRequests

    func run() async throws {
        await cancelWhenGracefulShutdown {
            await withDiscardingTaskGroup { group in
                group.addTask {
                    await authorizer.deadlines.run { app, deadline in await authorizer.expire(app, deadline: deadline) }
                }
                group.addTask { await changes.deadlines.run { id, _ in await changes.expire(id) } }
                group.addTask { await changes.followAccess() }
                group.addTask { await picks.deadlines.run { id, _ in await picks.expire(id) } }
                group.addTask { await picks.followAccess() }
            }
        }
    }
}
