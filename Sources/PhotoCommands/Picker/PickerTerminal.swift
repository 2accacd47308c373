/// The terminal the picker runs on: the controlling terminal (`TTYTerminal`) in photoctl, a
/// scripted one in tests, so the whole picker runs without photod or a pseudo-terminal.
protocol PickerTerminal: AnyObject, Sendable {
    /// Columns and rows now.
    func size() -> (columns: Int, rows: Int)
    /// Writes escaped text and escape sequences the picker made; never text from a photo raw.
    func write(_ text: String)
    /// Raw mode and the alternate screen; throws when the terminal cannot be set up.
    func begin() throws
    /// Puts the terminal back as it was; safe to call more than once.
    func end()
    /// Starts reading on a thread of its own: `received` gets each read's bytes (empty when
    /// only the size changed), and nil at the terminal's end.
    func startReading(_ received: @escaping @Sendable ([UInt8]?) -> Void)
}

/// The escape sequences around the picker's screens.
enum ScreenText {
    /// The alternate screen (the shell's lines come back after), cursor hidden.
    static let enter = "\u{1B}[?1049h\u{1B}[?25l"
    /// The cursor shown, the normal screen back.
    static let leave = "\u{1B}[?25h\u{1B}[?1049l"

    /// One whole screen: every line rewritten from the top (cleared to its end, so nothing of
    /// the last screen stays), then `picture` (already positioned) when there is one.
    static func draw(_ frame: PickerFrame, clearPictures: Bool, picture: String) -> String {
        var out = clearPictures ? KittyGraphics.clearPlacements : ""
        out += "\u{1B}[H"
        for (index, line) in frame.lines.enumerated() {
            out += line + "\u{1B}[K"
            // Raw mode leaves output unprocessed: a newline alone would not return the carriage.
            if index < frame.lines.count - 1 { out += "\r\n" }
        }
        out += "\u{1B}[J" + picture
        return out
    }

    /// Moves the cursor to a cell (1-based).
    static func moveTo(row: Int, column: Int) -> String { "\u{1B}[\(row);\(column)H" }
}
