/// One `courier` subcommand.
protocol Command: Sendable {
    /// The word that selects it, such as "send".
    static var name: String { get }
    /// One line for `courier --help`.
    static var summary: String { get }
    /// What it (and each of its subcommands) takes, as its `--help` shows.
    static var specs: [ArgumentSpec] { get }
    /// Runs it with the words after the subcommand's name; returns the exit status.
    static func run(_ arguments: [String]) async throws -> Int32
}

/// Every subcommand, in the order `courier --help` lists them.
let allCommands: [any Command.Type] = [
    DemoCommand.self, MockCommand.self, SendCommand.self, CallCommand.self, OpenAPICommand.self,
    BenchCommand.self,
]

/// Exit statuses, after BSD's sysexits where one fits.
enum ExitStatus {
    static let success: Int32 = 0
    static let failure: Int32 = 1
    /// A response arrived but `--fail` was given and its status was 400 or more.
    static let httpError: Int32 = 22
    static let usage: Int32 = 64
    static let unavailable: Int32 = 69
}
