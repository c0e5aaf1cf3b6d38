import CourierOpenAPI
import Foundation

/// `generate DOCUMENT --output DIR`: Swift declarations from an OpenAPI document.
package enum GenerateCommand: Command {
    package static let name = "generate"
    package static let summary =
        "write Swift declarations (API enums and Codable models) from an OpenAPI document"

    enum Options {
        static let output = Option.value(
            "--output", "-o", placeholder: "DIR", help: "the folder to write the Swift files to (required)",
            required: true)
        static let report = Option.value(
            "--report", placeholder: "FILE", help: "also write every part not declared, as JSON, to FILE")
        static let noFormat = Option.flag("--no-format", help: "do not run `swift format` on the files")
        static let access = Option.value(
            "--access", placeholder: "internal|public",
            help: "who may use the declarations: the module alone (default) or any that imports it")
    }

    package static func spec(in tool: CourierTool) -> ArgumentSpec {
        ArgumentSpec(
            program: tool.name, command: name,
            summary:
                "Writes an API enum per tag (one static function per operation, typed parameters), the Codable models of the schemas, and a namespace that writes the document again, formatted with `swift format`. Each part of the document the declarations cannot carry is printed on stderr with its JSON pointer (documentation only as a count). Exits 65 when the document cannot be read.",
            options: [Options.output, Options.report, Options.noFormat, Options.access],
            positionals: ["DOCUMENT"])
    }

    package static func specs(in tool: CourierTool) -> [ArgumentSpec] { [spec(in: tool)] }

    package static func run(_ arguments: [String], in tool: CourierTool) async throws -> Int32 {
        guard let parsed = try spec(in: tool).parseUnlessHelp(arguments) else { return ExitStatus.success }
        guard let path = parsed.positionals.first else { throw UsageError("generate needs DOCUMENT") }
        guard let output = parsed.value(Options.output) else {
            throw UsageError("generate needs --output DIR")
        }
        let access = try parsed.value(Options.access).map { text in
            guard let access = DeclarationGenerator.Access(rawValue: text) else {
                throw UsageError("--access is internal or public, not \(text)")
            }
            return access
        }
        let generated: GeneratedDeclarations
        do {
            generated = try DeclarationGenerator.generate(
                readDocument(path, for: "\(tool.name) generate"), access: access ?? .internal)
        } catch {
            standardError("\(tool.name) generate: \(error)\n")
            return ExitStatus.dataError
        }
        let folder = URL(fileURLWithPath: output)
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        var written: [String] = []
        for (name, source) in generated.files.sorted(by: { $0.key < $1.key }) {
            let file = folder.appendingPathComponent(name)
            try Data(source.utf8).write(to: file)
            written.append(file.path)
        }
        if !parsed.has(Options.noFormat) { format(written, tool: tool) }
        let features = generated.undeclared.filter { !$0.isDocumentation }
        for feature in features { standardError("not declared: \(feature)\n") }
        let documentation = generated.undeclared.count - features.count
        standardError(
            "\(tool.name) generate: wrote \(written.count) files to \(output); \(features.count) parts not declared"
                + (documentation > 0 ? ", and \(documentation) descriptions or examples" : "") + "\n")
        if let report = parsed.value(Options.report) {
            let entries = generated.undeclared.map { feature in
                JSONValue.object([
                    "pointer": .string(feature.pointer), "reason": .string(feature.reason),
                    "documentation": .bool(feature.isDocumentation),
                ])
            }
            try JSONValue.array(entries).serialized(pretty: true).write(to: URL(fileURLWithPath: report))
        }
        return ExitStatus.success
    }

    /// Runs the toolchain's `swift format` on `files`; without it the files stay as written (valid code).
    private static func format(_ files: [String], tool: CourierTool) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["swift", "format", "-i"] + files
        process.standardOutput = FileHandle.nullDevice
        let errors = Pipe()
        process.standardError = errors
        do {
            try process.run()
            let message = errors.fileHandleForReading.readDataToEndOfFile()
            process.waitUntilExit()
            if process.terminationStatus != 0 {
                standardError(
                    "\(tool.name) generate: swift format failed (the files are left as written): "
                        + String(decoding: message, as: UTF8.self))
            }
        } catch {
            standardError(
                "\(tool.name) generate: swift format is not available (the files are left as written)\n")
        }
    }
}
