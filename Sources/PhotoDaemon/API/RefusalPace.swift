/// The pause before a caller hears it is over a limit (`Busy`, `ImageBusy`).
///
/// Refusing at once invites a loop: eight connections of one app searching back to back were
/// refused 3,000 times a second, and answering those took as much CPU as the searches photod
/// ran, all of it taken from the owner. A refusal that comes after a pause costs photod nothing
/// meanwhile (a sleeping task) and holds the refused connection, so one app's flood runs at the
/// speed photod serves it. A caller that hangs up ends the pause.
enum RefusalPace {
    /// How long a refused call waits before its error.
    static let pause = Duration.milliseconds(250)

    /// Waits `pause`, or less when the call is cancelled (its client hung up).
    static func wait() async {
        try? await Task.sleep(for: pause)
    }
}
