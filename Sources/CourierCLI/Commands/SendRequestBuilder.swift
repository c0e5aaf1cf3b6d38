import Courier
import CourierContract
import CourierTool
import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// Turns `courier send`'s arguments into a `TransportRequest`: a pure function, tested without a network.
struct SendRequestBuilder {
    private typealias O = SendCommand.Options
    var parsed: ParsedArguments

    func build() throws -> TransportRequest {
        let method = HTTPMethod(rawValue: parsed.positionals[0])
        guard !method.rawValue.isEmpty, method.rawValue.allSatisfy({ $0.isLetter }) else {
            throw UsageError("'\(parsed.positionals[0])' is not an HTTP method")
        }
        let urlText = parsed.positionals[1]
        guard let url = URL(string: urlText), let scheme = url.scheme?.lowercased(),
            scheme == "http" || scheme == "https", url.host?.isEmpty == false
        else { throw UsageError("'\(urlText)' is not an absolute http or https URL") }

        var request = TransportRequest(method: method, url: url)
        try addBody(to: &request)
        for header in parsed.all(O.header) {
            guard let colon = header.firstIndex(of: ":") else {
                throw UsageError("header '\(header)' must look like 'Name: value'")
            }
            let name = header[..<colon].trimmingCharacters(in: .whitespaces)
            let value = header[header.index(after: colon)...].trimmingCharacters(in: .whitespaces)
            do {
                try HTTPHeaders.validate(name: name, value: value)
            } catch {
                throw UsageError(error.message)
            }
            request.headers.replaceOrAdd(name: name, value: value)
        }
        if let user = parsed.value(O.user) {
            guard user.contains(":") else { throw UsageError("--user takes user:password") }
            request.headers.replaceOrAdd(
                name: "Authorization", value: "Basic " + Data(user.utf8).base64EncodedString())
        }
        return request
    }

    private func addBody(to request: inout TransportRequest) throws {
        let bodyKinds = [
            parsed.value(O.json) != nil, parsed.value(O.data) != nil,
            !parsed.all(O.form).isEmpty || !parsed.all(O.file).isEmpty,
        ]
        guard bodyKinds.filter({ $0 }).count <= 1 else {
            throw UsageError("use one of --json, --data, or --form/--file")
        }
        if let json = parsed.value(O.json) {
            do {
                _ = try JSONSerialization.jsonObject(with: Data(json.utf8), options: [.fragmentsAllowed])
            } catch {
                throw UsageError("--json is not valid JSON: \(error.localizedDescription)")
            }
            request.body = .data(Data(json.utf8))
            request.headers.replaceOrAdd(name: "Content-Type", value: "application/json")
        } else if let data = parsed.value(O.data) {
            if data.hasPrefix("@") {
                let path = String(data.dropFirst())
                guard FileManager.default.isReadableFile(atPath: path) else {
                    throw UsageError("--data: cannot read '\(path)'")
                }
                request.body = .file(URL(fileURLWithPath: path))
            } else {
                request.body = .data(Data(data.utf8))
            }
            request.headers.replaceOrAdd(name: "Content-Type", value: "application/x-www-form-urlencoded")
        } else if !parsed.all(O.form).isEmpty || !parsed.all(O.file).isEmpty {
            var form = MultipartForm()
            for field in parsed.all(O.form) {
                let (name, value) = try split(field, option: "--form")
                form.append(value, name: name)
            }
            for part in parsed.all(O.file) {
                let (name, value) = try split(part, option: "--file")
                guard value.hasPrefix("@") else { throw UsageError("--file takes name=@path") }
                let path = String(value.dropFirst())
                guard FileManager.default.isReadableFile(atPath: path) else {
                    throw UsageError("--file: cannot read '\(path)'")
                }
                form.appendFile(at: URL(fileURLWithPath: path), name: name)
            }
            try form.encode(into: &request)
        }
    }

    private func split(_ text: String, option: String) throws -> (String, String) {
        guard let equals = text.firstIndex(of: "="), equals != text.startIndex else {
            throw UsageError("\(option) takes name=value, not '\(text)'")
        }
        return (String(text[..<equals]), String(text[text.index(after: equals)...]))
    }
}
