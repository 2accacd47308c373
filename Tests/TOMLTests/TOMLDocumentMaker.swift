import PhotoTestSupport

/// Random documents of the subset the parser reads, in the many ways TOML lets one write them
/// (bare, quoted and dotted keys, escapes, number forms, arrays over lines, comments, CRLF).
enum TOMLDocumentMaker {
    static func document(_ random: inout SplitMix64) -> String {
        var maker = Maker(random: random)
        let text = maker.document()
        random = maker.random
        return text
    }

    private struct Maker {
        var random: SplitMix64
        var names = 0
        var newline = "\n"

        mutating func fresh(_ prefix: String) -> String {
            names += 1
            return prefix + String(names)
        }

        mutating func pick<T>(_ choices: [T]) -> T { choices[random.below(choices.count)] }

        mutating func document() -> String {
            newline = random.below(4) == 0 ? "\r\n" : "\n"
            var text = section()
            for _ in 0..<random.below(4) {
                let name = random.below(3) == 0 ? fresh("h") + "." + key() : key()
                text += space() + "[" + space() + name + space() + "]" + space() + comment() + newline + section()
            }
            return text
        }

        mutating func section() -> String {
            var text = ""
            for _ in 0..<random.below(5) {
                if random.below(4) == 0 {
                    let table = fresh("d")
                    for _ in 0...random.below(2) { text += line(table + space() + "." + space() + key()) }
                } else {
                    text += line(key())
                }
                if random.below(4) == 0 { text += space() + comment() + newline }
            }
            return text
        }

        mutating func line(_ key: String) -> String {
            space() + key + space() + "=" + space() + value(depth: 0) + space() + comment() + newline
        }

        mutating func key() -> String {
            let name = fresh(pick(["k", "key_", "a-b", "0"]))
            switch random.below(4) {
            case 0: return "\"" + name + pick(["", " x", "é", ".dot", "\\t", "\\u00E9"]) + "\""
            case 1: return "'" + name + pick(["", " y", "日", "\\"]) + "'"
            default: return name
            }
        }

        mutating func space() -> String { pick(["", "", " ", "\t", "  "]) }

        mutating func comment() -> String { random.below(3) == 0 ? pick(["# note", "#", "# é \"x\" = [", "#\t'"]) : "" }

        mutating func value(depth: Int) -> String {
            switch random.below(depth < 3 ? 6 : 5) {
            case 0: return basicString()
            case 1: return "'" + pick(["", "C:\\path", "a \"q\"", "日本", "\\n"]) + "'"
            case 2: return integer()
            case 3: return pick(["true", "false"])
            case 4: return integer()
            default: return array(depth: depth + 1)
            }
        }

        mutating func basicString() -> String {
            var text = "\""
            for _ in 0..<random.below(6) {
                text += pick(["a", " ", "é", "😀", "\\\"", "\\\\", "\\n", "\\t", "\\b", "\\f", "\\r", "\\u00e9",
                              "\\U0001F600", "\\u0000", "#", "'", "\t"])
            }
            return text + "\""
        }

        mutating func integer() -> String {
            let number = random.below(2_000_001) - 1_000_000
            switch random.below(6) {
            case 0: return String(number)
            case 1: return "+" + String(abs(number))
            case 2: return "0x" + String(abs(number), radix: 16, uppercase: random.below(2) == 0)
            case 3: return "0o" + String(abs(number), radix: 8)
            case 4: return "0b" + String(abs(number), radix: 2)
            default: return pick(["1_000", "-9_223_372_036_854_775_808", "9223372036854775807", "0", "-0", "+0"])
            }
        }

        mutating func array(depth: Int) -> String {
            let count = random.below(4)
            var text = "["
            for index in 0..<count {
                text += pick(["", " ", newline + "  ", " # c" + newline])
                text += value(depth: depth)
                if index < count - 1 || random.below(3) == 0 { text += space() + "," }
            }
            return text + pick(["", " ", newline]) + "]"
        }
    }
}
