/// Where imported photos go: `[import] folder`, a path whose `%Y`, `%m` and `%d` become the
/// year, month and day the photo was taken (else today's), as in "~/Pictures/Imported/%Y/%m".
struct ImportFolder: Sendable, Equatable {
    /// The template as configured, absolute.
    let template: String

    /// Why a template is refused, in words for the config error.
    enum TemplateError: Error, Equatable, CustomStringConvertible {
        case unknownField(String)
        case notAbsolute

        var description: String {
            switch self {
            case .unknownField(let field): "\(field) is not one of %Y, %m, %d and %%"
            case .notAbsolute: "the folder must be an absolute path"
            }
        }
    }

    /// Checks `template`: absolute, and no `%` but `%Y`, `%m`, `%d` and `%%`.
    init(template: String) throws(TemplateError) {
        guard template.hasPrefix("/") else { throw .notAbsolute }
        var rest = Substring(template)
        while let percent = rest.firstIndex(of: "%") {
            let field = rest[percent...].prefix(2)
            guard ["%Y", "%m", "%d", "%%"].contains(field) else { throw .unknownField(String(field)) }
            rest = rest[rest.index(percent, offsetBy: 2)...]
        }
        self.template = template
    }

    /// The folder for a photo taken at `date` ("2021-05-01T10:00:00…", the reader's form), or
    /// for `today` (the same form) when the photo says nothing usable.
    func folder(taken date: String?, today: String) -> String {
        let (year, month, day) = Self.parts(date) ?? Self.parts(today) ?? ("0000", "00", "00")
        var out = ""
        var rest = Substring(template)
        while let percent = rest.firstIndex(of: "%") {
            out += rest[..<percent]
            let field = rest[rest.index(after: percent)]
            out += field == "Y" ? year : field == "m" ? month : field == "d" ? day : "%"
            rest = rest[rest.index(percent, offsetBy: 2)...]
        }
        return out + rest
    }

    /// Year, month and day of "YYYY-MM-DD…" with digits where they belong and a real month and day.
    private static func parts(_ date: String?) -> (String, String, String)? {
        guard let date, date.utf8.count >= 10 else { return nil }
        let text = Array(date.utf8.prefix(10))
        let digits = [0, 1, 2, 3, 5, 6, 8, 9]
        guard digits.allSatisfy({ (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(text[$0]) }),
              text[4] == UInt8(ascii: "-"), text[7] == UInt8(ascii: "-") else { return nil }
        let year = String(decoding: text[0..<4], as: UTF8.self)
        let month = String(decoding: text[5..<7], as: UTF8.self)
        let day = String(decoding: text[8..<10], as: UTF8.self)
        guard let m = Int(month), (1...12).contains(m), let d = Int(day), (1...31).contains(d), year != "0000" else { return nil }
        return (year, month, day)
    }
}
