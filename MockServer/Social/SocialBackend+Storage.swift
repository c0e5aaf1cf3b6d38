import Courier
import CourierContract
import CourierContractModel
import Endpoints
import Foundation
import MockServer

extension SocialBackend {
    /// The largest profile image accepted, in bytes.
    static let maxAvatarBytes = 8 << 20

    /// Stores a video by moving the spooled body file (or writing a small in-memory body).
    func storeVideo(name: String, userId: String, request: SocialRequest) throws -> SocialResponse {
        if let owner = state.withLock({ $0.videos[name]?.owner }), owner != userId {
            throw SocialFailure.status(403, "forbidden", "Videos/\(name) belongs to another user")
        }
        let number = state.withLock { $0.nextNumber() }
        let destination = storageDirectory.appendingPathComponent("videos/\(number)-\(name)")
        try saveBody(of: request, to: destination)
        let size = Self.fileSize(destination)
        let record = SocialState.VideoRecord(
            owner: userId, file: destination, size: size, etag: "\"v\(number)-\(size)\"")
        let replaced: URL?
        do {
            replaced = try state.withLock { state -> URL? in
                if let existing = state.videos[name], existing.owner != userId {
                    throw SocialFailure.status(403, "forbidden", "Videos/\(name) belongs to another user")
                }
                defer { state.videos[name] = record }
                return state.videos[name]?.file
            }
        } catch {
            // Another user stored the name first: this upload is not kept.
            try? FileManager.default.removeItem(at: destination)
            throw error
        }
        if let replaced { try? FileManager.default.removeItem(at: replaced) }
        let stored = StoredVideo(
            name: name, size: size, etag: record.etag,
            downloadURL: Self.downloadURL(request.origin, "videos", name))
        return .json(stored, status: 201)
    }

    /// A part's declared type when it is an image type (served back as it came), else nil.
    static func imageType(_ declared: String) -> String? {
        let essence =
            declared.split(separator: ";").first?.trimmingCharacters(in: .whitespaces).lowercased() ?? ""
        let allowed = ["image/jpeg", "image/png", "image/gif", "image/webp", "image/heic", "image/avif"]
        return allowed.contains(essence) ? essence : nil
    }

    func videoLink(name: String, origin: String) throws -> SocialResponse {
        guard state.withLock({ $0.videos[name] != nil }) else {
            throw SocialFailure.notFound("no stored video named \(name)")
        }
        return .json(VideoLink(name: name, url: Self.downloadURL(origin, "videos", name)))
    }

    func storeAvatar(userId: String, request: SocialRequest, origin: String) throws -> SocialResponse {
        let body: Data
        if let file = request.bodyFile {
            guard Self.fileSize(file) <= Int64(Self.maxAvatarBytes),
                let data = FileManager.default.contents(atPath: file.path)
            else { throw ContractViolation(parameter: "image", reason: "must be at most 8 MiB") }
            body = data
        } else {
            body = request.body
        }
        let contentType = request.header("Content-Type") ?? ""
        guard let image = MultipartParser.file(named: "image", in: body, contentType: contentType) else {
            throw ContractViolation(
                parameter: "image", reason: "a multipart/form-data part named image is required")
        }
        let number = state.withLock { $0.nextNumber() }
        let destination = storageDirectory.appendingPathComponent("avatars/\(number)-\(userId)")
        do {
            try image.data.write(to: destination)
        } catch {
            throw SocialFailure.status(500, "storage", "cannot store the image: \(error)")
        }
        let user: User
        let replaced: URL?
        do {
            (user, replaced) = try state.withLock { state -> (User, URL?) in
                guard state.users[userId] != nil else {
                    throw SocialFailure.status(401, "unauthorized", "the token's user no longer exists")
                }
                let replaced = state.users[userId]?.avatarFile
                state.users[userId]?.avatarFile = destination
                state.users[userId]?.avatarType = image.contentType.flatMap(Self.imageType)
                // allowed: checked above under the same lock
                return (state.user(userId, origin: origin)!, replaced)
            }
        } catch {
            try? FileManager.default.removeItem(at: destination)
            throw error
        }
        if let replaced { try? FileManager.default.removeItem(at: replaced) }
        return .json(user)
    }

    /// `GET /storage/videos/{name}` and `GET /storage/avatars/{userId}`: files with Range
    /// support (from the server), `ETag` revalidation with `If-None-Match` (the weak comparison, as
    /// for a static file in nginx) and `If-Match` (the strong one: a 412 when it fails).
    func serveStorage(_ request: SocialRequest) -> SocialResponse? {
        let segments = request.path.split(separator: "/").map(String.init)
        guard segments.count == 3, let key = segments[2].removingPercentEncoding else { return nil }
        guard request.method == "GET" || request.method == "HEAD" else {
            var response = SocialResponse.error(
                405, "method_not_allowed", "storage is read-only here; use GET")
            response.headers.append(("Allow", "GET, HEAD"))
            return response
        }
        let found: (file: URL, etag: String, type: String)? = state.withLock { state in
            switch segments[1] {
            case "videos":
                return state.videos[key].map { ($0.file, $0.etag, "video/mp4") }
            case "avatars":
                guard let file = state.users[key]?.avatarFile else { return nil }
                let type = state.users[key]?.avatarType ?? "image/jpeg"
                return (file, "\"a-\(file.lastPathComponent)\"", type)
            default:
                return nil
            }
        }
        guard let found else { return .error(404, "not_found", "no stored file at \(request.path)") }
        let headers = [("ETag", found.etag), ("Content-Type", found.type), ("Cache-Control", "no-cache")]
        // RFC 9110 §13.2.2: If-Match first, compared strongly; then If-None-Match, compared weakly.
        // A field that is not `*` or a list of entity tags is ignored.
        if let match = request.header("If-Match").flatMap(EntityTags.init(field:)),
            !match.matchesStrongly(found.etag)
        {
            var response = SocialResponse.error(
                412, "precondition_failed", "If-Match names no current tag of \(request.path)")
            response.headers.append(("ETag", found.etag))
            return response
        }
        if let noneMatch = request.header("If-None-Match").flatMap(EntityTags.init(field:)),
            noneMatch.matchesWeakly(found.etag)
        {
            return SocialResponse(status: 304, headers: headers)
        }
        return SocialResponse(status: 200, headers: headers, body: .file(found.file))
    }

    /// Moves the request's spooled body file to `destination`, or writes the in-memory body.
    func saveBody(of request: SocialRequest, to destination: URL) throws {
        do {
            if let file = request.bodyFile {
                try FileManager.default.moveItem(at: file, to: destination)
            } else {
                try request.body.write(to: destination)
            }
        } catch {
            throw SocialFailure.status(500, "storage", "cannot store the upload: \(error)")
        }
    }

    static func fileSize(_ url: URL) -> Int64 {
        ((try? FileManager.default.attributesOfItem(atPath: url.path))?[.size] as? NSNumber)?.int64Value ?? 0
    }

    static func downloadURL(_ origin: String, _ folder: String, _ name: String) -> URL {
        let escaped = name.addingPercentEncoding(withAllowedCharacters: .urlPathAllowed) ?? name
        // allowed: origin comes from the Host header, already a valid authority or the fallback
        return URL(string: "\(origin)/storage/\(folder)/\(escaped)") ?? URL(fileURLWithPath: "/")
    }
}
