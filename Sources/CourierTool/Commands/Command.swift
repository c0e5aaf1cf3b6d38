/// One subcommand of a tool made with `CourierTool` (`openapi`, `mock`, `call`, `verify`, and
/// the extra commands a tool adds).
package protocol Command: Sendable {
    /// The word that selects it, such as "call".
    static var name: String { get }
    /// One line for the tool's `--help`.
    static var summary: String { get }
    /// What it (and each of its subcommands) takes, as its `--help` shows, in `tool`.
    static func specs(in tool: CourierTool) -> [ArgumentSpec]
    /// Runs it in `tool` with the words after the subcommand's name; returns the exit status.
    /// - Throws: `UsageError` for a mistake in the arguments (exit status 64); any other error
    ///   is printed and exits 1.
    static func run(_ arguments: [String], in tool: CourierTool) async throws -> Int32
}

/// Exit statuses, after BSD's sysexits where one fits.
package enum ExitStatus {
    package static let success: Int32 = 0
    /// A failure; for `verify`, a violation of the declaration.
    package static let failure: Int32 = 1
    /// A response arrived but `--fail` was given and its status was 400 or more.
    package static let httpError: Int32 = 22
    package static let usage: Int32 = 64
    /// An input file that cannot be read as what it must be (an OpenAPI document).
    package static let dataError: Int32 = 65
    package static let unavailable: Int32 = 69
}
