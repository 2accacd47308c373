import ArgumentParser
import PhotoAPI

/// `photoctl groups`: every group with its count and newest photo.
struct GroupsCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "groups", abstract: "List the groups.")

    @OptionGroup var global: GlobalOptions

    func run() async throws {
        let client = try await global.connect()
        let groups = try await client.groups()
        await client.close()
        if global.json { return try Output.json(ListGroupsReply(groups: groups)) }
        Output.table(["GROUP", "PHOTOS", "LATEST"], groups.map { group in
            [group.fallback ? "\(group.name) (no description)" : group.name, String(group.count), group.latest ?? "-"]
        })
    }
}
