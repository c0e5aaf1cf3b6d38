/// A small command-line parser: flags, options with values (repeatable), and positionals.
///
/// Courier takes no outside packages, so this stands in for swift-argument-parser.
/// It accepts `--name value`, `--name=value` and `-x value`, and stops treating words
/// as options after `--`.
///
/// Each option is declared once, as an `Option` value; the parser, the usage line and the
/// help text are all made from the declarations, so they cannot drift apart.
struct Option: Hashable, Sendable {
    /// Its names, the canonical (long) one first, such as `["--header", "-H"]`.
    var names: [String]
    /// The placeholder for its value in help, such as "FILE"; `nil` for a flag.
    var valueName: String?
    /// One line of help.
    var help: String
    /// Whether the command cannot do without it (shown without brackets; the command checks).
    var required = false
    /// Whether it is meant to be given more than once (`value` returns the last, `all` every one).
    var repeatable = false

    /// The canonical name, under which values are stored.
    var name: String { names[0] }
    /// Whether it takes a value.
    var takesValue: Bool { valueName != nil }

    /// A flag: an option without a value.
    static func flag(_ names: String..., help: String) -> Option {
        Option(names: names, valueName: nil, help: help)
    }

    /// An option with a value.
    static func value(
        _ names: String..., placeholder: String, help: String, required: Bool = false,
        repeatable: Bool = false
    ) -> Option {
        Option(names: names, valueName: placeholder, help: help, required: required, repeatable: repeatable)
    }

    /// How the usage line shows it: `[--name VALUE]`, `[--name VALUE]...` when repeatable,
    /// `--name VALUE` when required.
    var synopsis: String {
        let text = name + (valueName.map { " " + $0 } ?? "")
        return (required ? text : "[" + text + "]") + (repeatable ? "..." : "")
    }

    /// How the options list shows it: every name, then the placeholder.
    var label: String { names.joined(separator: ", ") + (valueName.map { " " + $0 } ?? "") }

    /// `--help`, which every command takes.
    static let help = Option.flag("--help", "-h", help: "show this help")
}

/// What one command (or subcommand) takes.
struct ArgumentSpec {
    /// The words after `courier`, such as "send" or "bench run".
    var command: String
    /// What the command does, printed at the top of its help.
    var summary: String
    /// The options it takes, in the order help lists them.
    var options: [Option]
    /// Names of its positional arguments, such as "METHOD" and "URL".
    var positionals: [String] = []
    /// Words it takes after its own options that are not declared here (the endpoint
    /// arguments of `call`), as the usage line shows them.
    var trailing: String?

    func option(named name: String) -> Option? {
        (options + [.help]).first { $0.names.contains(name) }
    }

    /// The usage line, from the declarations.
    var usage: String {
        (["courier", command] + positionals + (trailing.map { [$0] } ?? []) + options.map(\.synopsis))
            .joined(separator: " ")
    }

    /// The text `--help` prints.
    var helpText: String {
        var lines = ["\(summary)", "", "usage: \(usage)", "", "options:"]
        for option in options + [.help] {
            let left = option.label
            lines.append(
                "  " + left.padding(toLength: max(28, left.count + 2), withPad: " ", startingAt: 0)
                    + option.help)
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

    /// The last value given for an option.
    func value(_ option: Option) -> String? { values[option.name]?.last }

    /// Every value given for a repeatable option, in order.
    func all(_ option: Option) -> [String] { values[option.name] ?? [] }

    /// Whether a flag was given.
    func has(_ option: Option) -> Bool { flags.contains(option.name) }

    /// An integer option, with a clear error when it is not one.
    func int(_ option: Option) throws -> Int? {
        guard let text = value(option) else { return nil }
        guard let number = Int(text) else {
            throw UsageError("\(option.name) takes a whole number, not '\(text)'")
        }
        return number
    }

    /// A decimal option, with a clear error when it is not one.
    func double(_ option: Option) throws -> Double? {
        guard let text = value(option) else { return nil }
        guard let number = Double(text), number.isFinite else {
            throw UsageError("\(option.name) takes a number, not '\(text)'")
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
            if option == .help {
                result.wantsHelp = true
                continue
            }
            if option.takesValue {
                let value: String
                if let inlineValue {
                    value = inlineValue
                } else {
                    guard index < arguments.count else { throw UsageError("option '\(name)' needs a value") }
                    value = arguments[index]
                    index += 1
                }
                result.add(option.name, value)
            } else {
                if inlineValue != nil { throw UsageError("option '\(name)' takes no value") }
                result.set(option.name)
            }
        }
        if !result.wantsHelp, result.positionals.count > positionals.count {
            let extra = result.positionals[positionals.count...].joined(separator: " ")
            throw UsageError("unexpected argument '\(extra)' for '\(command)'")
        }
        return result
    }
}
