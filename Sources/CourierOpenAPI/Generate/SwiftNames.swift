/// Swift spellings of the names a document uses.
enum SwiftNames {
    static let keywords: Set<String> = [
        "associatedtype", "class", "deinit", "enum", "extension", "fileprivate", "func", "import", "init",
        "inout",
        "internal", "let", "open", "operator", "private", "precedencegroup", "protocol", "public", "rethrows",
        "static", "struct", "subscript", "typealias", "var", "break", "case", "catch", "continue", "default",
        "defer",
        "do", "else", "fallthrough", "for", "guard", "if", "in", "repeat", "return", "throw", "switch",
        "where",
        "while", "as", "false", "is", "nil", "super", "throws", "true", "try", "await", "async", "some",
        "any",
    ]
    /// Names that a member may not take even in backticks, or that would hide what the code needs.
    static let reservedMembers: Set<String> = ["self", "Self", "Type", "Protocol", "init"]
    /// Type names that would hide the ones generated code uses.
    static let reservedTypes: Set<String> = [
        "Any", "API", "Array", "Body", "Bool", "Codable", "Character", "Data", "Date", "Decimal", "Decodable",
        "Dictionary", "Double", "EmptyResponse", "Encodable", "Endpoint", "EndpointDescribing", "Error",
        "FileUpload",
        "Float", "Foundation", "Header", "Int", "Int8", "Int16", "Int32", "Int64", "UInt8", "UInt16",
        "UInt32", "UInt64",
        "SchemaAlternatives", "JSONValue", "MultipartFile", "Never",
        "Optional",
        "Path", "Protocol", "Query", "Response", "Result", "Schema", "Self", "Sendable", "Set", "String",
        "Type",
        "URL", "UUID", "APIOperation", "OpenAPIDocument", "CodingKeys",
    ]

    /// Whether `name` is a plain identifier (letters, digits, `_`, not starting with a digit).
    static func isIdentifier(_ name: String) -> Bool {
        guard let first = name.unicodeScalars.first, !("0"..."9").contains(first) else { return false }
        return name.unicodeScalars.allSatisfy {
            ("a"..."z").contains($0) || ("A"..."Z").contains($0) || ("0"..."9").contains($0) || $0 == "_"
        }
    }

    /// The words of `text`, split at anything but ASCII letters and digits, and at lower-to-upper steps.
    static func words(_ text: String) -> [String] {
        var words: [String] = []
        var current = ""
        var previousLower = false
        for scalar in text.unicodeScalars {
            let isLetterOrDigit =
                ("a"..."z").contains(scalar) || ("A"..."Z").contains(scalar) || ("0"..."9").contains(scalar)
            guard isLetterOrDigit else {
                if !current.isEmpty { words.append(current) }
                current = ""
                previousLower = false
                continue
            }
            let isUpper = ("A"..."Z").contains(scalar)
            if isUpper, previousLower, !current.isEmpty {
                words.append(current)
                current = ""
            }
            current.unicodeScalars.append(scalar)
            previousLower = !isUpper
        }
        if !current.isEmpty { words.append(current) }
        return words
    }

    /// `UpperCamelCase` for a type.
    static func typeName(_ text: String) -> String {
        if isIdentifier(text), text.first?.isUppercase == true { return text }
        var name = words(text).map { $0.prefix(1).uppercased() + $0.dropFirst() }.joined()
        if name.isEmpty { name = "Value" }
        if name.first?.isNumber == true { name = "_" + name }
        return name
    }

    /// `lowerCamelCase` for a member, backticked when it is a keyword.
    static func memberName(_ text: String) -> String {
        var name: String
        if isIdentifier(text) {
            name = text
        } else {
            let parts = words(text)
            name = parts.enumerated().map { index, word in
                index == 0
                    ? word.prefix(1).lowercased() + word.dropFirst()
                    : word.prefix(1).uppercased() + word.dropFirst()
            }.joined()
            if name.isEmpty { name = "value" }
            if name.first?.isNumber == true { name = "_" + name }
        }
        if reservedMembers.contains(name) { return name + "_" }
        return name
    }

    /// `lowerCamelCase` for an enum case: a member name whose first letter is lowercase.
    static func caseName(_ text: String) -> String {
        let name = memberName(text)
        guard let first = name.first, first.isUppercase else { return name }
        let lowered = first.lowercased() + name.dropFirst()
        return reservedMembers.contains(lowered) ? lowered + "_" : lowered
    }

    /// `name` as it is written in code: backticked when it is a keyword.
    static func code(_ name: String) -> String { keywords.contains(name) ? "`\(name)`" : name }

    /// `name`, or `name2`, `name3`… — the first that `taken` does not hold; the result is added to `taken`.
    static func unique(_ name: String, in taken: inout Set<String>) -> String {
        var candidate = name
        var number = 2
        while taken.contains(candidate) {
            candidate = name + String(number)
            number += 1
        }
        taken.insert(candidate)
        return candidate
    }

    /// `text` as a Swift string literal.
    static func literal(_ text: String) -> String {
        "\"" + escaped(text) + "\""
    }

    /// `text` escaped for the inside of a Swift string literal.
    static func escaped(_ text: String) -> String {
        var result = ""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\\": result += "\\\\"
            case "\"": result += "\\\""
            case "\n": result += "\\n"
            case "\r": result += "\\r"
            case "\t": result += "\\t"
            default:
                if scalar.value < 0x20 || scalar.value == 0x7F {
                    result += "\\u{\(String(scalar.value, radix: 16))}"
                } else {
                    result.unicodeScalars.append(scalar)
                }
            }
        }
        return result
    }
}
