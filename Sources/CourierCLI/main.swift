import Foundation

func topLevelHelp(_ commands: [any Command.Type]) -> String {
    var lines = [
        "courier: declare HTTP APIs as enums, call them over libcurl or URLSession, test them against a mock server.",
        "",
        "usage: courier <command> [options]   (courier <command> --help for details)",
        "",
        "commands:",
    ]
    for command in commands {
        lines.append("  " + command.name.padding(toLength: 10, withPad: " ", startingAt: 0) + command.summary)
    }
    return lines.joined(separator: "\n")
}

var arguments = Array(CommandLine.arguments.dropFirst())
guard let first = arguments.first, first != "--help", first != "-h", first != "help" else {
    print(topLevelHelp(allCommands))
    exit(arguments.isEmpty ? ExitStatus.usage : ExitStatus.success)
}
arguments.removeFirst()
guard let command = allCommands.first(where: { $0.name == first }) else {
    FileHandle.standardError.write(
        Data("courier: unknown command '\(first)'\n\n\(topLevelHelp(allCommands))\n".utf8))
    exit(ExitStatus.usage)
}
do {
    exit(try await command.run(arguments))
} catch let error as UsageError {
    FileHandle.standardError.write(Data("courier \(command.name): \(error)\n".utf8))
    exit(ExitStatus.usage)
} catch {
    FileHandle.standardError.write(Data("courier \(command.name): \(error)\n".utf8))
    exit(ExitStatus.failure)
}
