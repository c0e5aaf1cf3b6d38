/// A small command-line parser: flags, options with values (repeatable), and positionals.
///
/// Courier takes no outside packages, so this stands in for swift-argument-parser.
/// It accepts `--name value`, `--name=value` and `-x value`, and stops treating words
/// as options after `--`.
///
/// Each option is declared once, as an `Option` value; the parser, the usage line and the
/// help text are all made from the declarations, so they cannot drift apart.
package struct Option: Hashable, Sendable {
    /// Its names, the canonical (long) one first, such as `["--header", "-H"]`.
    package var names: [String]
    /// The placeholder for its value in help, such as "FILE"; `nil` for a flag.
    package var valueName: String?
    /// One line of help.
    package var help: String
    /// Whether the command cannot do without it (shown without brackets; the command checks).
    package var required = false
    /// Whether it is meant to be given more than once (`value` returns the last, `all` every one).
    package var repeatable = false

    /// The canonical name, under which values are stored.
    package var name: String { names[0] }
    /// Whether it takes a value.
    package var takesValue: Bool { valueName != nil }

    /// A flag: an option without a value.
    package static func flag(_ names: String..., help: String) -> Option {
        Option(names: names, valueName: nil, help: help)
    }

    /// An option with a value.
    package static func value(
        _ names: String..., placeholder: String, help: String, required: Bool = false,
        repeatable: Bool = false
    ) -> Option {
        Option(names: names, valueName: placeholder, help: help, required: required, repeatable: repeatable)
    }

    /// How the usage line shows it: `[--name VALUE]`, `[--name VALUE]...` when repeatable,
    /// `--name VALUE` when required.
    package var synopsis: String {
        let text = name + (valueName.map { " " + $0 } ?? "")
        return (required ? text : "[" + text + "]") + (repeatable ? "..." : "")
    }

    /// How the options list shows it: every name, then the placeholder.
    package var label: String { names.joined(separator: ", ") + (valueName.map { " " + $0 } ?? "") }

    /// `--help`, which every command takes.
    package static let help = Option.flag("--help", "-h", help: "show this help")
}

/// What one command (or subcommand) takes.
package struct ArgumentSpec {
    /// The program's name, such as "courier" (a tool made with `CourierTool` sets its own).
    package var program: String
    /// The words after the program's name, such as "send" or "bench run".
    package var command: String
    /// What the command does, printed at the top of its help.
    package var summary: String
    /// The options it takes, in the order help lists them.
    package var options: [Option]
    /// Names of its positional arguments, such as "METHOD" and "URL".
    package var positionals: [String] = []
    /// Words it takes after its own options that are not declared here (the endpoint
    /// arguments of `call`), as the usage line shows them.
    package var trailing: String?

    /// Declares what a command takes.
    package init(
        program: String = "courier", command: String, summary: String, options: [Option],
        positionals: [String] = [], trailing: String? = nil
    ) {
        self.program = program
        self.command = command
        self.summary = summary
        self.options = options
        self.positionals = positionals
        self.trailing = trailing
    }

    /// This spec as the program `name` shows it.
    package func named(_ name: String) -> ArgumentSpec {
        var copy = self
        copy.program = name
        return copy
    }

    package func option(named name: String) -> Option? {
        (options + [.help]).first { $0.names.contains(name) }
    }

    /// The usage line, from the declarations.
    package var usage: String {
        ([program, command] + positionals + (trailing.map { [$0] } ?? []) + options.map(\.synopsis))
            .joined(separator: " ")
    }

    /// The text `--help` prints.
    package var helpText: String {
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
package struct ParsedArguments {
    package private(set) var values: [String: [String]] = [:]
    package private(set) var flags: Set<String> = []
    package var positionals: [String] = []
    package var wantsHelp = false

    /// The last value given for an option.
    package func value(_ option: Option) -> String? { values[option.name]?.last }

    /// Every value given for a repeatable option, in order.
    package func all(_ option: Option) -> [String] { values[option.name] ?? [] }

    /// Whether a flag was given.
    package func has(_ option: Option) -> Bool { flags.contains(option.name) }

    /// An integer option, with a clear error when it is not one.
    package func int(_ option: Option) throws -> Int? {
        guard let text = value(option) else { return nil }
        guard let number = Int(text) else {
            throw UsageError("\(option.name) takes a whole number, not '\(text)'")
        }
        return number
    }

    /// A decimal option, with a clear error when it is not one.
    package func double(_ option: Option) throws -> Double? {
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
package struct UsageError: Error, CustomStringConvertible {
    package var description: String
    package init(_ description: String) { self.description = description }
}

extension ArgumentSpec {
    /// Parses `arguments`, or prints the help text and returns `nil` when `--help` was given.
    /// - Throws: `UsageError`, as `parse(_:)`.
    package func parseUnlessHelp(_ arguments: [String]) throws -> ParsedArguments? {
        let parsed = try parse(arguments)
        if parsed.wantsHelp {
            print(helpText)
            return nil
        }
        return parsed
    }

    /// Parses `arguments` (without the command name).
    /// - Throws: `UsageError` for an unknown option, a missing value, or too many positionals.
    package func parse(_ arguments: [String]) throws -> ParsedArguments {
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
                    "unknown option '\(name)' for '\(command)' (see '\(program) \(command) --help')")
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
