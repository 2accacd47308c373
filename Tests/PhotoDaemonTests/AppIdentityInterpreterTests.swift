import Testing
@testable import PhotoDaemon

@Suite struct AppIdentityInterpreterTests {
    typealias S = AppIdentitySamples

    /// An interpreter sample: exe link target, argv, cwd, and the expected id and source.
    struct Sample: Sendable, CustomTestStringConvertible {
        let exe: String
        let arguments: [String]
        let cwd: String
        let id: String
        let source: AppIdentity.Source
        var testDescription: String { arguments.joined(separator: " ") }
    }

    static let samples: [Sample] = [
        Sample(exe: "/usr/bin/python3.11", arguments: ["python3", "/home/u/tool.py"], cwd: "/",
               id: "script:/usr/bin/python3.11:/home/u/tool.py", source: .script),
        Sample(exe: "/usr/bin/python3.11", arguments: ["python3", "-u", "tool.py", "-v"], cwd: "/home/u/bin",
               id: "script:/usr/bin/python3.11:/home/u/bin/tool.py", source: .script),
        Sample(exe: "/usr/bin/python3.11", arguments: ["python3", "-W", "ignore", "-X", "dev", "-uB", "../t.py"],
               cwd: "/home/u/bin", id: "script:/usr/bin/python3.11:/home/u/t.py", source: .script),
        Sample(exe: "/usr/bin/python3.11",
               arguments: ["python3", "-Wignore", "--check-hash-based-pycs", "never", "a.py"], cwd: "/srv",
               id: "script:/usr/bin/python3.11:/srv/a.py", source: .script),
        Sample(exe: "/usr/bin/python3.11", arguments: ["python3", "-m", "varlink.cli", "call", "unix:/run/x"],
               cwd: "/home/u", id: "module:/usr/bin/python3.11:varlink.cli", source: .module),
        Sample(exe: "/usr/bin/python3.11", arguments: ["python3", "-umvarlink.cli", "x.py"],
               cwd: "/home/u", id: "module:/usr/bin/python3.11:varlink.cli", source: .module),
        Sample(exe: "/usr/bin/python3.11", arguments: ["python3", "-c", "print(1)", "x.py"],
               cwd: "/home/u", id: "exe:/usr/bin/python3.11", source: .executable),
        Sample(exe: "/usr/bin/python3.11", arguments: ["python3", "-", "x.py"],
               cwd: "/home/u", id: "exe:/usr/bin/python3.11", source: .executable),
        Sample(exe: "/usr/bin/python3.11", arguments: ["python3"],
               cwd: "/home/u", id: "exe:/usr/bin/python3.11", source: .executable),
        Sample(exe: "/usr/bin/python2.7", arguments: ["/usr/bin/python", "--", "-odd.py"],
               cwd: "/home/u", id: "script:/usr/bin/python2.7:/home/u/-odd.py", source: .script),
        Sample(exe: "/usr/bin/bash", arguments: ["bash", "./run.sh", "--flag"], cwd: "/home/u//work/.",
               id: "script:/usr/bin/bash:/home/u/work/run.sh", source: .script),
        Sample(exe: "/usr/bin/dash", arguments: ["sh", "-c", "x"], cwd: "/home/u",
               id: "exe:/usr/bin/dash", source: .executable),
        Sample(exe: "/usr/bin/bash", arguments: ["bash", "-ec", "x", "name"], cwd: "/home/u",
               id: "exe:/usr/bin/bash", source: .executable),
        Sample(exe: "/usr/bin/bash", arguments: ["bash", "-o", "pipefail", "+x", "--norc", "s.sh"], cwd: "/home/u",
               id: "script:/usr/bin/bash:/home/u/s.sh", source: .script),
        Sample(exe: "/usr/bin/zsh", arguments: ["zsh", "-s", "a"], cwd: "/home/u",
               id: "exe:/usr/bin/zsh", source: .executable),
        Sample(exe: "/usr/bin/dash", arguments: ["sh", "-", "s.sh"], cwd: "/tmp",
               id: "script:/usr/bin/dash:/tmp/s.sh", source: .script),
        Sample(exe: "/usr/bin/node", arguments: ["node", "--inspect", "app.js"], cwd: "/home/u/web",
               id: "script:/usr/bin/node:/home/u/web/app.js", source: .script),
        Sample(exe: "/usr/lib/node/nodejs",
               arguments: ["node", "-r", "ts-node/register", "--max-old-space-size=99", "a.js"], cwd: "/w",
               id: "script:/usr/lib/node/nodejs:/w/a.js", source: .script),
        Sample(exe: "/usr/bin/node", arguments: ["node", "-e", "console.log(1)", "a.js"], cwd: "/w",
               id: "exe:/usr/bin/node", source: .executable),
        Sample(exe: "/usr/bin/node", arguments: ["node", "--eval=1", "a.js"], cwd: "/w",
               id: "exe:/usr/bin/node", source: .executable),
        Sample(exe: "/usr/bin/perl", arguments: ["perl", "-w", "script.pl"], cwd: "/home/u",
               id: "script:/usr/bin/perl:/home/u/script.pl", source: .script),
        Sample(exe: "/usr/bin/perl5.36.0", arguments: ["perl", "-I", "lib", "-Mstrict", "-l0", "bin/s.pl"], cwd: "/p",
               id: "script:/usr/bin/perl5.36.0:/p/bin/s.pl", source: .script),
        Sample(exe: "/usr/bin/perl", arguments: ["perl", "-wle", "print 1", "x.pl"], cwd: "/p",
               id: "exe:/usr/bin/perl", source: .executable),
        Sample(exe: "/usr/bin/perl", arguments: ["perl", "-0777", "-ln0x0A", "-i.bak", "f.pl"], cwd: "/p",
               id: "script:/usr/bin/perl:/p/f.pl", source: .script),
        Sample(exe: "/usr/bin/perl", arguments: ["perl", "-l0e", "print 1", "x.pl"], cwd: "/p",
               id: "exe:/usr/bin/perl", source: .executable),
        Sample(exe: "/usr/bin/ruby3.1", arguments: ["/usr/bin/ruby", "x.rb"], cwd: "/home/u",
               id: "script:/usr/bin/ruby3.1:/home/u/x.rb", source: .script),
        Sample(exe: "/usr/bin/ruby3.1",
               arguments: ["ruby", "-r", "json", "-Ilib", "--enable", "frozen-string-literal", "x.rb"], cwd: "/r",
               id: "script:/usr/bin/ruby3.1:/r/x.rb", source: .script),
        Sample(exe: "/usr/bin/ruby3.1", arguments: ["ruby", "-e", "puts 1"], cwd: "/r",
               id: "exe:/usr/bin/ruby3.1", source: .executable),
    ]

    @Test(arguments: samples)
    func interpretersAreIdentifiedByWhatTheyRun(sample: Sample) {
        let identity = S.plain(exe: sample.exe, S.cmdline(sample.arguments), cwd: sample.cwd)
        #expect(identity.id == sample.id)
        #expect(identity.source == sample.source)
        #expect(identity.executable == sample.exe)
        #expect(identity.uid == 1000)
    }

    @Test(arguments: [
        ("/usr/bin/python3.11", AppIdentityInterpreter.python), ("/usr/bin/python", .python),
        ("/usr/bin/python3", .python), ("/usr/bin/perl5.36.0", .perl), ("/usr/bin/ruby", .ruby),
        ("/usr/bin/node", .node), ("/usr/bin/nodejs", .node), ("/bin/sh", .shell),
        ("/usr/bin/bash", .shell), ("/usr/bin/dash", .shell), ("/usr/bin/zsh", .shell),
    ])
    func interpretersAreKnownByBasename(exe: String, interpreter: AppIdentityInterpreter) {
        #expect(AppIdentityInterpreter(executable: exe) == interpreter)
    }

    @Test(arguments: ["/usr/bin/python3-config", "/usr/bin/pythonista", "/usr/bin/perldoc", "/usr/bin/rubyx",
                      "/usr/bin/nodemon", "/usr/bin/fish", "/usr/bin/shx", "/opt/bash/photoctl"])
    func lookalikesAreNotInterpreters(exe: String) {
        #expect(AppIdentityInterpreter(executable: exe) == nil)
        #expect(S.plain(exe: exe, S.cmdline("x", "y.py")).id == "exe:" + exe)
    }

    @Test func aRelativeScriptWithoutAWorkingDirectoryFallsBackToTheInterpreter() {
        let identity = S.plain(exe: "/usr/bin/python3.11", S.cmdline("python3", "tool.py"), cwd: nil)
        #expect(identity.id == "exe:/usr/bin/python3.11")
        let absolute = S.plain(exe: "/usr/bin/python3.11", S.cmdline("python3", "/a/../b/./t.py"), cwd: nil)
        #expect(absolute.id == "script:/usr/bin/python3.11:/b/t.py")
    }

    @Test func aDeletedWorkingDirectoryStillPlacesTheScript() {
        let identity = S.plain(exe: "/usr/bin/perl", S.cmdline("perl", "s.pl"), cwd: "/home/u/old (deleted)")
        #expect(identity.id == "script:/usr/bin/perl:/home/u/old/s.pl")
    }
}
