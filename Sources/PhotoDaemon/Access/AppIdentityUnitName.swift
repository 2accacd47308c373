/// Reads the ApplicationID out of a systemd app unit name, as the desktop portals do.
///
/// Forms (systemd.io/DESKTOP_ENVIRONMENTS): `app[-<launcher>]-<ApplicationID>-<RANDOM>.scope` and
/// `app[-<launcher>]-<ApplicationID>[@<RANDOM>].service`. The ApplicationID is reverse-DNS (so it holds
/// a dot, which tells it from the launcher and the random part) and spells its dashes `\x2d`.
enum AppIdentityUnitName {
    /// The unescaped ApplicationID of an `app-…` scope or service unit, or nil when the name is not one.
    static func applicationID(fromUnit unit: Substring) -> String? {
        guard unit.hasPrefix("app-") else { return nil }
        var body = unit.dropFirst(4)
        let isScope: Bool
        if body.hasSuffix(".scope") {
            body = body.dropLast(6)
            isScope = true
        } else if body.hasSuffix(".service") {
            body = body.dropLast(8)
            isScope = false
            if let at = body.firstIndex(of: "@") { body = body[..<at] }
        } else {
            return nil
        }
        var parts: [String] = []
        for part in body.split(separator: "-", omittingEmptySubsequences: false) {
            guard let unescaped = unescape(part), !unescaped.isEmpty else { return nil }
            parts.append(unescaped)
        }
        guard let index = parts.firstIndex(where: { $0.contains(".") }) else { return nil }
        let launcher = parts[..<index]
        let random = parts[(index + 1)...]
        guard launcher.count <= 1, launcher.allSatisfy(isLauncher) else { return nil }
        guard random.count == (isScope ? 1 : 0), random.allSatisfy({ !$0.contains(".") }) else { return nil }
        return isApplicationID(parts[index]) ? parts[index] : nil
    }

    /// Undoes systemd's `\xHH` escaping; nil for a malformed escape or bytes that are not UTF-8.
    static func unescape(_ text: Substring) -> String? {
        var bytes: [UInt8] = []
        var rest = Substring(text).utf8[...]
        while let byte = rest.first {
            rest = rest.dropFirst()
            guard byte == UInt8(ascii: "\\") else {
                bytes.append(byte)
                continue
            }
            guard rest.first == UInt8(ascii: "x"), rest.count >= 3,
                  let value = UInt8(String(decoding: rest.dropFirst().prefix(2), as: UTF8.self), radix: 16)
            else { return nil }
            bytes.append(value)
            rest = rest.dropFirst(3)
        }
        return String(validating: bytes, as: UTF8.self)
    }

    /// A reverse-DNS id: two or more non-empty dot-separated elements of letters, digits, `_` and `-`.
    static func isApplicationID(_ text: String) -> Bool {
        let elements = text.split(separator: ".", omittingEmptySubsequences: false)
        return text.utf8.count <= 255 && elements.count >= 2
            && elements.allSatisfy { !$0.isEmpty && $0.allSatisfy(isIDCharacter) }
    }

    /// A launcher name such as `gnome`, `kde` or `flatpak`.
    private static func isLauncher(_ text: String) -> Bool {
        !text.contains(".") && text.allSatisfy(isIDCharacter)
    }

    /// ASCII letters, digits, `_` and `-`.
    private static func isIDCharacter(_ character: Character) -> Bool {
        guard let ascii = character.asciiValue else { return false }
        return (ascii >= 0x30 && ascii <= 0x39) || (ascii >= 0x41 && ascii <= 0x5A)
            || (ascii >= 0x61 && ascii <= 0x7A) || ascii == 0x5F || ascii == 0x2D
    }
}
