package transcript

import (
	"bufio"
	"bytes"
	"crypto/sha256"
	"encoding"
	"errors"
	"fmt"
	"hash"
	"io"

	"github.com/factbase/factbase"
)

// DefaultMaxLineSize is the longest line, in bytes without its newline, that a
// Reader parses unless Options say otherwise.
const DefaultMaxLineSize = 64 << 20

// readBufferSize is the bufio buffer: lines up to this size are parsed in place.
const readBufferSize = 64 << 10

// keepBufferSize is the largest line buffer kept between lines; a longer line's
// buffer is dropped after use so that one huge line does not pin its memory.
const keepBufferSize = 4 << 20

// Options configure a Reader. The zero value is ready to use.
type Options struct {
	// MaxLineSize is the longest line accepted, in bytes without the newline;
	// 0 means DefaultMaxLineSize (64 MiB). A longer line is reported as Malformed
	// and skipped without being held in memory.
	MaxLineSize int
	// AcceptUnterminated makes a last line that has no newline but is valid JSON
	// count as complete: it is consumed and returned. By default such a line is
	// reported as incomplete and not consumed, because the agent may still be
	// writing it (Claude Code ends every line with a newline); set this only for
	// files known to be finished.
	AcceptUnterminated bool
	// Replay, used only by Resume, is called with each message of the already
	// consumed prefix after its checksum has been verified, so that a stateful
	// consumer (Extractor.Observe, Sessions.Add) can rebuild what it knew.
	Replay func(Message)
}

// Malformed reports a line that was skipped, or an incomplete last line. It is
// returned as an error by Reader.Next; reading may continue after it.
type Malformed struct {
	File   string
	Line   int   // 1-based line number
	Offset int64 // byte offset of the line's first byte
	Reason string
	// Incomplete is set for a last line without a newline. It was not consumed:
	// Offset and Sum stop before it, so a later read of the grown file sees it again.
	Incomplete bool
}

// Error implements error as "file:line: reason".
func (m *Malformed) Error() string {
	return fmt.Sprintf("%s:%d: %s", m.File, m.Line, m.Reason)
}

// Checkpoint records how much of a file a Reader has consumed: an ingester stores
// it and hands it to Resume to read only what was appended since.
type Checkpoint struct {
	Offset int64  // bytes consumed: always the end of a complete line
	Line   int    // lines consumed
	Sum    []byte // SHA-256 of the first Offset bytes of the file
}

// Reader reads a session log one message at a time. It holds one line in memory at
// a time (at most Options.MaxLineSize bytes). It is not safe for concurrent use.
type Reader struct {
	br   *bufio.Reader
	file string
	max  int
	opts Options

	off  int64 // bytes consumed
	line int   // lines consumed
	h    hash.Hash
	buf  []byte
	err  error // sticky: io.EOF or a read error
	p    parser
	// pending is an accepted unterminated last line (Options.AcceptUnterminated).
	pending *Message
}

// NewReader returns a Reader of r, which must be at the start of the file; file
// names the file in Messages and errors.
func NewReader(r io.Reader, file string, opts Options) *Reader {
	max := opts.MaxLineSize
	if max <= 0 {
		max = DefaultMaxLineSize
	}
	return &Reader{
		br:   bufio.NewReaderSize(r, readBufferSize),
		file: file,
		max:  max,
		opts: opts,
		h:    sha256.New(),
	}
}

// Resume returns a Reader that continues f after the part described by cp. It first
// re-reads the first cp.Offset bytes and compares their SHA-256 with cp.Sum: if they
// match, the Reader starts at cp.Offset (resumed is true) and its Sum goes on
// covering the whole file; Options.Replay, if set, then receives each message of
// that prefix. If the file is shorter or its prefix differs (it was rewritten), the
// Reader starts over at offset 0 and resumed is false. A zero Checkpoint starts at 0
// with resumed true. A Checkpoint with an offset but no Sum is refused (EINVALID);
// errors reading f are returned as they are.
func Resume(f io.ReadSeeker, file string, cp Checkpoint, opts Options) (r *Reader, resumed bool, err error) {
	if cp.Offset < 0 || cp.Offset > 0 && len(cp.Sum) == 0 {
		return nil, false, factbase.Errorf(factbase.EINVALID, "transcript: checkpoint of %s at offset %d has no checksum", file, cp.Offset)
	}
	if _, err := f.Seek(0, io.SeekStart); err != nil {
		return nil, false, fmt.Errorf("transcript: resume %s: %w", file, err)
	}
	r = NewReader(f, file, opts)
	if cp.Offset == 0 {
		return r, true, nil
	}
	lines := &lineCounter{}
	n, err := io.CopyN(io.MultiWriter(r.h, lines), f, cp.Offset)
	if err != nil && !errors.Is(err, io.EOF) {
		return nil, false, fmt.Errorf("transcript: resume %s: %w", file, err)
	}
	if n < cp.Offset || !bytes.Equal(r.h.Sum(nil), cp.Sum) {
		if _, err := f.Seek(0, io.SeekStart); err != nil {
			return nil, false, fmt.Errorf("transcript: resume %s: %w", file, err)
		}
		return NewReader(f, file, opts), false, nil
	}
	if opts.Replay != nil {
		if _, err := f.Seek(0, io.SeekStart); err != nil {
			return nil, false, fmt.Errorf("transcript: resume %s: %w", file, err)
		}
		// The prefix was consumed whole, so its last line counts even without a
		// newline (a line accepted by AcceptUnterminated).
		pre := NewReader(io.LimitReader(f, cp.Offset), file, Options{MaxLineSize: opts.MaxLineSize, AcceptUnterminated: true})
		for {
			m, err := pre.Next()
			if errors.Is(err, io.EOF) {
				break
			}
			var bad *Malformed
			if errors.As(err, &bad) {
				continue
			}
			if err != nil {
				return nil, false, fmt.Errorf("transcript: resume %s: %w", file, err)
			}
			opts.Replay(m)
		}
	}
	r.off, r.line = cp.Offset, lines.n
	if lines.last != '\n' {
		r.line++ // an accepted unterminated last line
	}
	r.br.Reset(f)
	return r, true, nil
}

// lineCounter counts the newlines written to it and remembers the last byte.
type lineCounter struct {
	n    int
	last byte
}

func (c *lineCounter) Write(p []byte) (int, error) {
	c.n += bytes.Count(p, []byte{'\n'})
	if len(p) > 0 {
		c.last = p[len(p)-1]
	}
	return len(p), nil
}

// Offset returns the byte offset just past the last complete line consumed.
func (r *Reader) Offset() int64 { return r.off }

// Line returns the number of lines consumed.
func (r *Reader) Line() int { return r.line }

// Sum returns the SHA-256 of the bytes consumed, from the start of the file to
// Offset. An ingester stores it to detect a rewritten file (see Resume).
func (r *Reader) Sum() []byte { return r.h.Sum(nil) }

// Checkpoint returns the Reader's position, for Resume.
func (r *Reader) Checkpoint() Checkpoint {
	return Checkpoint{Offset: r.off, Line: r.line, Sum: r.Sum()}
}

// Next returns the next message. At the end of the input it returns io.EOF. A line
// that cannot be parsed (invalid JSON, not an object, no type, a user or assistant
// line without uuid, longer than MaxLineSize) is consumed and returned as a
// *Malformed error, and the next call goes on with the following line. A last line
// without a newline is not consumed and is returned as a *Malformed with Incomplete
// set (unless it is only white space), after which Next returns io.EOF. Blank lines
// are skipped. Any other error comes from the underlying reader and is returned
// again by every later call.
//
// Lines of every type are returned, not only user and assistant ones.
func (r *Reader) Next() (Message, error) {
	for {
		if r.err != nil {
			return Message{}, r.err
		}
		line, over, err := r.readLine()
		if err != nil {
			return Message{}, err
		}
		if r.pending != nil {
			m := *r.pending
			r.pending = nil
			return m, nil
		}
		start := r.off
		if over > 0 {
			r.off += over
			r.line++
			return Message{}, &Malformed{File: r.file, Line: r.line, Offset: start,
				Reason: fmt.Sprintf("line of %d bytes is longer than the maximum of %d bytes; skipped", over-1, r.max)}
		}
		r.h.Write(line)
		r.off += int64(len(line))
		r.line++
		if isBlank(line) {
			continue
		}
		m := Message{File: r.file, Line: r.line, Offset: start, End: r.off}
		if err := r.p.parse(line[:len(line)-1], &m); err != nil {
			return Message{}, &Malformed{File: r.file, Line: r.line, Offset: start, Reason: err.Error()}
		}
		return m, nil
	}
}

// readLine returns the next complete line including its newline, valid until the
// next call. If the line exceeded the maximum, it returns a nil line and the
// number of bytes skipped (already hashed). At the end of input it sets r.err and
// returns the Malformed report for an incomplete tail, or io.EOF.
func (r *Reader) readLine() (line []byte, over int64, err error) {
	r.buf = r.buf[:0]
	var snap []byte // hash state before a skipped line, to undo it if incomplete
	for {
		chunk, err := r.br.ReadSlice('\n')
		n := len(r.buf) + len(chunk)
		content := n
		if err == nil {
			content-- // the newline
		}
		switch {
		case over > 0:
			r.h.Write(chunk)
			over += int64(len(chunk))
		case content > r.max:
			// Too long: hash and drop the bytes as they pass, holding none of them.
			if m, ok := r.h.(encoding.BinaryMarshaler); ok {
				snap, _ = m.MarshalBinary()
			}
			r.h.Write(r.buf)
			r.h.Write(chunk)
			over = int64(n)
			r.dropBuffer()
		case err == nil && len(r.buf) == 0:
			return chunk, 0, nil // the whole line is in bufio's buffer
		default:
			r.buf = append(r.buf, chunk...)
		}
		switch {
		case err == nil:
			if over > 0 {
				return nil, over, nil
			}
			line := r.buf
			if cap(r.buf) > keepBufferSize {
				r.buf = nil
			}
			return line, 0, nil
		case errors.Is(err, bufio.ErrBufferFull):
			continue
		case errors.Is(err, io.EOF):
			return nil, 0, r.tail(over, snap)
		default:
			r.err = fmt.Errorf("transcript: read %s: %w", r.file, err)
			return nil, 0, r.err
		}
	}
}

// tail handles the bytes after the last newline at the end of input.
func (r *Reader) tail(over int64, snap []byte) error {
	r.err = io.EOF
	bad := &Malformed{File: r.file, Line: r.line + 1, Offset: r.off, Incomplete: true}
	if over > 0 {
		if u, ok := r.h.(encoding.BinaryUnmarshaler); ok && snap != nil {
			_ = u.UnmarshalBinary(snap) // a state just marshalled by the same hash
		}
		bad.Reason = fmt.Sprintf("incomplete last line: no newline after %d bytes (longer than the maximum of %d); not consumed", over, r.max)
		return bad
	}
	line := r.buf
	defer r.dropBuffer()
	if isBlank(line) {
		return io.EOF
	}
	m := Message{File: r.file, Line: r.line + 1, Offset: r.off, End: r.off + int64(len(line))}
	if err := r.p.parse(line, &m); err != nil {
		bad.Reason = fmt.Sprintf("incomplete last line: no newline after %d bytes (%v); not consumed", len(line), err)
		return bad
	}
	if r.opts.AcceptUnterminated {
		r.h.Write(line)
		r.off += int64(len(line))
		r.line++
		r.pending = &m
		return nil
	}
	bad.Reason = fmt.Sprintf("incomplete last line: no newline after %d bytes (valid JSON, but the writer may not be done); not consumed", len(line))
	return bad
}

func (r *Reader) dropBuffer() {
	if cap(r.buf) > keepBufferSize {
		r.buf = nil
	} else {
		r.buf = r.buf[:0]
	}
}

func isBlank(b []byte) bool {
	for _, c := range b {
		switch c {
		case ' ', '\t', '\n', '\r':
		default:
			return false
		}
	}
	return true
}
