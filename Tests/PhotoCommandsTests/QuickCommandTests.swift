import Testing
@testable import PhotoCommands

/// `QuickCommand` reads only the lines it runs exactly as ArgumentParser would, and leaves every
/// other line (other options, help, values ArgumentParser refuses) to ArgumentParser.
@Suite struct QuickCommandTests {
    @Test(arguments: [
        ["status"], ["groups"], ["groups", "--json"], ["list"], ["list", "--limit", "100"], ["list", "Holidays"],
        ["list", "Other (no description)", "--limit", "5", "--no-pager"], ["find", "beach"],
        ["find", "beach", "2019", "--limit", "50"], ["show", "y3tta4hq1zatkr66"], ["show", "a", "b", "--full"],
        ["status", "--no-legend", "--as-app"],
    ])
    func theCommonLinesAreReadHere(arguments: [String]) {
        #expect(QuickCommand(arguments) != nil)
    }

    @Test(arguments: [
        [], ["status", "extra"], ["groups", "--format", "tsv"], ["groups", "--help"], ["groups", "-h"], ["help"],
        ["help", "groups"], ["list", "--limit", "0"], ["list", "--limit", "-3"], ["list", "--limit"],
        ["list", "--limit=5"], ["list", "--limit", "2", "--limit", "3"], ["list", "a", "b"], ["list", "--reverse"],
        ["list", "--since", "today"], ["find"], ["find", " "], ["find", "--", "-x"], ["find", "help"],
        ["find", "beach", "-0"], ["show"], ["show", "--limit", "3", "id"], ["status", "--socket", "/tmp/s"],
        ["permissions", "list"], ["--version"], ["status", "--json=yes"],
    ])
    func everyOtherLineIsLeftToArgumentParser(arguments: [String]) {
        #expect(QuickCommand(arguments) == nil)
    }

    @Test func theGlobalFlagsAreRead() throws {
        let quick = try #require(QuickCommand(["list", "--json", "--full", "--no-legend", "--no-pager", "--as-app"]))
        #expect(quick.global.json && quick.global.full && quick.global.noLegend && quick.global.noPager && quick.global.asApp)
        #expect(quick.global.socket == nil && quick.global.host == nil && quick.global.serviceUser == nil)
        #expect(quick.global.callsOnCallingThread, "its calls wait on the calling thread")
        #expect(quick.paged)
        #expect(try #require(QuickCommand(["find", "x"])).paged == false, "find is not PagedOutput")
    }
}
