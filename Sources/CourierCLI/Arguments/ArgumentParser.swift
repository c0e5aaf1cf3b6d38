/// A small command-line parser: flags, options with values (repeatable), and positionals.
///
/// Courier takes no outside packages, so this stands in for swift-argument-parser.
/// It accepts `--name value`, `--name=value` and `-x value`, and stops treating words
/// as options after `--`.
struct ArgumentSpec {
    /// An option that takes a value, or a flag that does not.
    struct Option {
        var names: [String]
        var takesValue: Bool
        var help: String
        var valueName: String = "VALUE"
    }

    var command: String
    var summary: String
    var usage: String
    var options: [Option]
    var positionals: [String] = []

    func option(named name: String) -> Option? {
        options.first { $0.names.contains(name) }
    }

    /// The text `--help` prints.
    var helpText: String {
        var lines = ["\(summary)", "", "usage: \(usage)"]
        if !options.isEmpty {
            lines.append("")
            lines.append("options:")
            let all = options + [Option(names: ["--help", "-h"], takesValue: false, help: "show this help")]
            for option in all {
                let left =
                    option.names.joined(separator: ", ")
                    + (option.takesValue ? " \(option.valueName)" : "")
                lines.append(
                    "  " + left.padding(toLength: max(28, left.count + 2), withPad: " ", startingAt: 0)
                        + option.help)
            }
        }
        return lines.joined(separator: "\n")
    }
}

/// What the parser found.
struct ParsedArguments {
    private(set) var values: [String: [String]] = [:]
    private(set) var flags: Set<String> = []
    var positionals: [String] = []
    var wantsHelp = false

    /// The last value given for an option, by its first (canonical) name.
    func value(_ name: String) -> String? { values[name]?.last }

    /// Every value given for a repeatable option, in order.
    func all(_ name: String) -> [String] { values[name] ?? [] }

    /// Whether a flag was given.
    func has(_ name: String) -> Bool { flags.contains(name) }

    /// An integer option, with a clear error when it is not one.
    func int(_ name: String) throws -> Int? {
        guard let text = value(name) else { return nil }
        guard let number = Int(text) else { throw UsageError("\(name) takes a whole number, not '\(text)'") }
        return number
    }

    /// A decimal option, with a clear error when it is not one.
    func double(_ name: String) throws -> Double? {
        guard let text = value(name) else { return nil }
        guard let number = Double(text), number.isFinite else {
            throw UsageError("\(name) takes a number, not '\(text)'")
        }
        return number
    }

    fileprivate mutating func add(_ name: String, _ value: String) { values[name, default: []].append(value) }
    fileprivate mutating func set(_ name: String) { flags.insert(name) }
}

/// A mistake in how the command was called. Printed with the usage line; exit status 64.
struct UsageError: Error, CustomStringConvertible {
    var description: String
    init(_ description: String) { self.description = description }
}

extension ArgumentSpec {
    /// Parses `arguments`, or prints the help text and returns `nil` when `--help` was given.
    /// - Throws: `UsageError`, as `parse(_:)`.
    func parseUnlessHelp(_ arguments: [String]) throws -> ParsedArguments? {
        let parsed = try parse(arguments)
        if parsed.wantsHelp {
            print(helpText)
            return nil
        }
        return parsed
    }

    /// Parses `arguments` (without the command name).
    /// - Throws: `UsageError` for an unknown option, a missing value, or too many positionals.
    func parse(_ arguments: [String]) throws -> ParsedArguments {
        var result = ParsedArguments()
        var index = 0
        var onlyPositionals = false
        while index < arguments.count {
            let word = arguments[index]
            index += 1
            if onlyPositionals || !word.hasPrefix("-") || word == "-" {
                result.positionals.append(word)
                continue
            }
            if word == "--" {
                onlyPositionals = true
                continue
            }
            if word == "--help" || word == "-h" {
                result.wantsHelp = true
                continue
            }
            var name = word
            var inlineValue: String?
            if word.hasPrefix("--"), let equals = word.firstIndex(of: "=") {
                name = String(word[..<equals])
                inlineValue = String(word[word.index(after: equals)...])
            }
            guard let option = option(named: name) else {
                throw UsageError(
                    "unknown option '\(name)' for '\(command)' (see 'courier \(command) --help')")
            }
            let canonical = option.names[0]
            if option.takesValue {
                if let inlineValue {
                    result.add(canonical, inlineValue)
                } else {
                    guard index < arguments.count else { throw UsageError("option '\(name)' needs a value") }
                    result.add(canonical, arguments[index])
                    index += 1
                }
            } else {
                if inlineValue != nil { throw UsageError("option '\(name)' takes no value") }
                result.set(canonical)
            }
        }
        if !result.wantsHelp, result.positionals.count > positionals.count {
            let extra = result.positionals[positionals.count...].joined(separator: " ")
            throw UsageError("unexpected argument '\(extra)' for '\(command)'")
        }
        return result
    }
}
