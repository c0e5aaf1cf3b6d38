import Foundation

/// A date, time or date-time format in Pact's notation (Java's `DateTimeFormatter` letters:
/// `yyyy-MM-dd'T'HH:mm:ss[.SSS]XXX`) turned into a regular expression for the text's shape.
enum DateFormatPattern {
    /// The regular expression (anchored) that text in `format` matches.
    static func regex(for format: String) -> String {
        var pattern = "^"
        let characters = Array(format)
        var index = 0
        while index < characters.count {
            let character = characters[index]
            if character == "'" {
                var end = index + 1
                var literal = ""
                while end < characters.count {
                    if characters[end] == "'" {
                        if end + 1 < characters.count, characters[end + 1] == "'" {
                            literal.append("'")
                            end += 2
                            continue
                        }
                        break
                    }
                    literal.append(characters[end])
                    end += 1
                }
                pattern += literal.isEmpty ? "'" : NSRegularExpression.escapedPattern(for: literal)
                index = end + 1
                continue
            }
            if character == "[" {
                pattern += "(?:"
                index += 1
                continue
            }
            if character == "]" {
                pattern += ")?"
                index += 1
                continue
            }
            var count = 1
            while index + count < characters.count, characters[index + count] == character { count += 1 }
            index += count
            pattern += piece(character, count)
        }
        return pattern + "$"
    }

    private static func piece(_ letter: Character, _ count: Int) -> String {
        switch letter {
        case "y", "u": return count == 2 ? "\\d{2}" : "\\d{4}"
        case "M", "L":
            switch count {
            case 1: return "(?:1[0-2]|0?[1-9])"
            case 2: return "(?:0[1-9]|1[0-2])"
            case 3: return "[A-Za-z]{3}"
            default: return "[A-Za-z]+"
            }
        case "d": return count == 1 ? "(?:3[01]|[12]\\d|0?[1-9])" : "(?:0[1-9]|[12]\\d|3[01])"
        case "D": return "\\d{1,3}"
        case "H": return count == 1 ? "(?:2[0-3]|[01]?\\d)" : "(?:[01]\\d|2[0-3])"
        case "k": return "\\d{1,2}"
        case "h", "K": return count == 1 ? "\\d{1,2}" : "\\d{2}"
        case "m", "s": return count == 1 ? "[0-5]?\\d" : "[0-5]\\d"
        case "S": return "\\d{\(count)}"
        case "n": return "\\d+"
        case "a": return "(?:AM|PM|am|pm)"
        case "E": return count <= 3 ? "[A-Za-z]{3}" : "[A-Za-z]+"
        case "X":
            return count == 1
                ? "(?:Z|[+-]\\d{2}(?:\\d{2})?)" : count == 2 ? "(?:Z|[+-]\\d{4})" : "(?:Z|[+-]\\d{2}:\\d{2})"
        case "x":
            return count == 1 ? "[+-]\\d{2}(?:\\d{2})?" : count == 2 ? "[+-]\\d{4}" : "[+-]\\d{2}:\\d{2}"
        case "Z": return count <= 3 ? "[+-]\\d{4}" : "(?:Z|GMT[+-]\\d{2}:\\d{2})"
        case "z", "V", "O": return "[A-Za-z][A-Za-z0-9/_+:-]*"
        case "G": return "[A-Za-z]+"
        default:
            return NSRegularExpression.escapedPattern(for: String(repeating: String(letter), count: count))
        }
    }
}
