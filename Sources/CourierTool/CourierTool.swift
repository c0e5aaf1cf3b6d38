import Courier
import CourierContract
import CourierContractModel
import CourierPrimitives
import Foundation
import MockServer
import MockServerContract

/// A command-line tool for your declared APIs: `openapi`, `mock`, `call` and `verify`, with
/// usage and help generated from the declarations.
///
/// An executable of a few lines gets the whole tool; its `main.swift`:
///
/// ```swift
/// import CourierTool
///
/// await CourierTool(name: "notes", apis: [NotesAPI.self]).run()
/// ```
///
/// - `notes openapi` prints the OpenAPI 3.1 document of the APIs.
/// - `notes mock` serves them: routing and request validation from the declarations, WireMock
///   stubs (`--mappings DIR`) on top, answers from the handler you give or from examples.
/// - `notes call ID --ARG VALUE…` calls one operation (`--list` lists them, `ID --help` shows
///   its arguments) and prints the JSON.
/// - `notes verify --base-url URL` checks a live server against the declarations.
/// - `notes contract diff DOCUMENT` compares the declarations with a provider's OpenAPI document
///   and exits 1 when a change breaks the client.
///
/// Exit statuses: 0 success, 1 failure (for `verify`, any violation), 22 an error status from
/// `call`, 64 a usage mistake.
public struct CourierTool: Sendable {
    /// The program's name, as usage lines show it.
    public let name: String
    /// One line on what the tool is for, at the top of its help.
    package let summary: String
    /// The title of the OpenAPI document.
    package let title: String
    /// The description of the OpenAPI document, if any.
    package let documentDescription: String?
    /// One sample call of every operation, in order. Made when a command first asks, once:
    /// building every sample (bodies and all) is some 9M instructions for the bundled API, which
    /// `send` and `--help` do not need.
    package var samples: [any EndpointDescribing] { sampleCache.value }
    private let sampleCache: Once<[any EndpointDescribing]>
    /// Every declared operation, in order. Described when a command first asks (`openapi`,
    /// `call`, `contract`, `mock`), once per operation, not when the tool starts: `send` or
    /// `--help` pays nothing for them.
    package var operations: [APIOperation] { samples.map(\.operation) }
    /// Problems with the declarations (an operation declared but missing from `samples`), which
    /// `mock` warns of at start-up and `verify` reports as failures; found when asked for.
    package var declarationProblems: [String] { findDeclarationProblems() }
    private let findDeclarationProblems: @Sendable () -> [String]
    /// What `mock` serves behind the stubs.
    package let backend: MockBackend
    /// Every command, in the order help lists them.
    package let commands: [any Command.Type]

    /// The commands every tool has.
    package static let standardCommands: [any Command.Type] = [
        MockCommand.self, CallCommand.self, OpenAPICommand.self, VerifyCommand.self, ContractCommand.self,
        GenerateCommand.self,
    ]

    /// A tool for `apis`.
    /// - Parameters:
    ///   - name: the program's name, as usage lines show it.
    ///   - summary: one line on the tool, at the top of its help; default one naming the APIs.
    ///   - apis: the declared APIs; their operations are read from their `samples`, in order.
    ///   - handler: what `mock` serves behind the declaration's validation and the stubs, such
    ///     as a `ContractHandler` with responders; default a `ContractHandler` answering every
    ///     operation with an example made from its response schema.
    public init(
        name: String, summary: String? = nil, apis: [any API.Type], handler: (any HTTPHandler)? = nil
    ) {
        let samples = Once { apis.flatMap { $0.samples } }
        let groups = apis.map { $0.group }.joined(separator: ", ")
        self.init(
            name: name,
            summary: summary
                ?? "\(name): the \(groups) API as a command-line tool: its OpenAPI document, a mock server, calls and provider verification.",
            title: name, sampleCache: samples, declarationProblems: { apis.flatMap { $0.sampleProblems } },
            backend: MockBackend(
                options: [], description: "the API's handler",
                make: { _ in
                    MockBackend.Served(handlers: [
                        handler ?? ContractHandler(operations: samples.value.map(\.operation))
                    ])
                }),
            commands: Self.standardCommands)
    }

    /// A tool with its own mock backend and commands (the bundled `courier`): `commands` lists
    /// every command in the order help shows them, the standard ones among them.
    /// `samples` is read when a command first needs it (see `samples`), not here.
    package init(
        name: String, summary: String, title: String, documentDescription: String? = nil,
        samples: @autoclosure @escaping @Sendable () -> [any EndpointDescribing],
        declarationProblems: @autoclosure @escaping @Sendable () -> [String] = [], backend: MockBackend,
        commands: [any Command.Type] = standardCommands
    ) {
        self.init(
            name: name, summary: summary, title: title, documentDescription: documentDescription,
            sampleCache: Once(samples), declarationProblems: declarationProblems, backend: backend,
            commands: commands)
    }

    private init(
        name: String, summary: String, title: String, documentDescription: String? = nil,
        sampleCache: Once<[any EndpointDescribing]>, declarationProblems: @escaping @Sendable () -> [String],
        backend: MockBackend, commands: [any Command.Type]
    ) {
        self.sampleCache = sampleCache
        self.findDeclarationProblems = declarationProblems
        self.documentDescription = documentDescription
        self.name = name
        self.summary = summary
        self.title = title
        self.backend = backend
        self.commands = commands
    }

    /// Runs the tool with the process's arguments and exits with its status.
    public func run() async -> Never {
        exit(await run(Array(CommandLine.arguments.dropFirst())))
    }

    /// Runs the tool with `arguments` (without the program's name), printing what it prints,
    /// and returns the exit status.
    public func run(_ arguments: [String]) async -> Int32 {
        var arguments = arguments
        guard let first = arguments.first, first != "--help", first != "-h", first != "help" else {
            print(help)
            return arguments.isEmpty ? ExitStatus.usage : ExitStatus.success
        }
        arguments.removeFirst()
        guard let command = commands.first(where: { $0.name == first }) else {
            standardError("\(name): unknown command '\(first)'\n\n\(help)\n")
            return ExitStatus.usage
        }
        do {
            return try await command.run(arguments, in: self)
        } catch let error as UsageError {
            standardError("\(name) \(command.name): \(error)\n")
            return ExitStatus.usage
        } catch {
            standardError("\(name) \(command.name): \(error)\n")
            return ExitStatus.failure
        }
    }

    /// What `--help` prints: the summary, the usage and one line per command.
    package var help: String {
        var lines = [
            summary, "", "usage: \(name) <command> [options]   (\(name) <command> --help for details)", "",
            "commands:",
        ]
        for command in commands {
            lines.append(
                "  " + command.name.padding(toLength: 10, withPad: " ", startingAt: 0) + command.summary)
        }
        return lines.joined(separator: "\n")
    }
}

/// What `mock` serves behind the stubs, and the options that shape it.
package struct MockBackend: Sendable {
    /// The handlers to serve and what to do when the server stops.
    package struct Served: Sendable {
        package var handlers: [any HTTPHandler]
        package var stop: @Sendable () -> Void
        /// Paths the handlers serve for a test's set-up rather than as the API (a provider-state
        /// endpoint), which `--pact-out` does not record.
        package var setUpPaths: Set<String>

        package init(
            handlers: [any HTTPHandler], setUpPaths: Set<String> = [],
            stop: @escaping @Sendable () -> Void = {}
        ) {
            self.handlers = handlers
            self.setUpPaths = setUpPaths
            self.stop = stop
        }
    }

    /// Options of `mock` that only this backend takes (the social backend's `--seed-data`).
    package var options: [Option]
    /// What `--no-backend` leaves out, for its help line.
    package var description: String
    /// Makes the handlers from `mock`'s parsed arguments.
    package var make: @Sendable (ParsedArguments) throws -> Served

    package init(
        options: [Option], description: String, make: @escaping @Sendable (ParsedArguments) throws -> Served
    ) {
        self.options = options
        self.description = description
        self.make = make
    }
}

/// Writes `text` to standard error.
package func standardError(_ text: String) {
    FileHandle.standardError.write(Data(text.utf8))
}

/// A value made by its closure the first time it is read, then kept; safe to read from any thread.
final class Once<Value: Sendable>: @unchecked Sendable {
    // @unchecked Sendable: `made` is only touched under its lock, and `make` is @Sendable.
    private let made = Locked<Value?>(nil)
    private let make: @Sendable () -> Value

    init(_ make: @escaping @Sendable () -> Value) { self.make = make }

    /// The value, made now if it has not been yet. Made under the lock, so it is made once even
    /// when two threads ask at the same moment.
    var value: Value {
        made.withLock { made in
            if let value = made { return value }
            let value = make()
            made = value
            return value
        }
    }
}
