import Foundation
import Posix
import Testing

/// `EnvironmentVariables.current()` against ProcessInfo's environment, which photoctl read before.
@Suite struct EnvironmentVariablesTests {
    @Test func theVariablesAreProcessInfosEvenOddOnes() {
        // A value holding "=", an empty one, a name past ASCII, and bytes that are not UTF-8.
        setenv("PHOTOD_TEST_EQUALS", "a=b=c", 1)
        setenv("PHOTOD_TEST_EMPTY", "", 1)
        setenv("PHOTOD_TEST_\u{E9}", "caf\u{E9}", 1)
        // An "=" with a combining mark after it is no "=" character: the entry splits further on.
        setenv("PHOTOD_TEST_MARK", "\u{301}x=y", 1)
        let latin1: [CChar] = [0x63, 0x61, 0x66, -23, 0]
        setenv("PHOTOD_TEST_LATIN1", latin1, 1)
        let variables = EnvironmentVariables.current()
        #expect(variables == ProcessInfo.processInfo.environment)
        #expect(variables["PHOTOD_TEST_EQUALS"] == "a=b=c")
        #expect(variables["PHOTOD_TEST_EMPTY"] == "")
        #expect(variables["PHOTOD_TEST_LATIN1"] == "caf\u{FFFD}")
        #expect(variables["PHOTOD_TEST_MARK=\u{301}x"] == "y")
        for name in ["PHOTOD_TEST_EQUALS", "PHOTOD_TEST_EMPTY", "PHOTOD_TEST_\u{E9}", "PHOTOD_TEST_LATIN1", "PHOTOD_TEST_MARK"] {
            unsetenv(name)
        }
    }
}
