package prose

import (
	"reflect"
	"testing"

	"github.com/git-memcite/git-memcite/internal/memfile"
	"github.com/git-memcite/git-memcite/internal/verify"
)

// filled sets every exported field of v (a pointer) that is a string,
// an integer or a bool to a value that is not zero, recursively.
func filled(t *testing.T, v reflect.Value) {
	t.Helper()
	v = v.Elem()
	for i := 0; i < v.NumField(); i++ {
		f := v.Field(i)
		if !v.Type().Field(i).IsExported() {
			continue
		}
		switch f.Kind() {
		case reflect.String:
			f.SetString(v.Type().Field(i).Name + "\xff")
		case reflect.Int, reflect.Int64:
			f.SetInt(int64(-3 - i))
		case reflect.Uint8:
			f.SetUint(uint64(5 + i))
		case reflect.Bool:
			f.SetBool(true)
		case reflect.Struct:
			filled(t, f.Addr())
		case reflect.Slice:
			if f.Type().Elem().Kind() != reflect.String {
				t.Fatalf("%s.%s: a slice the test cannot fill", v.Type(), v.Type().Field(i).Name)
			}
			f.Set(reflect.ValueOf([]string{"x\xff", ""}).Convert(f.Type()))
		case reflect.Pointer:
			f.Set(reflect.New(f.Type().Elem()))
			filled(t, f)
		default:
			t.Fatalf("%s.%s: a %s the test cannot fill", v.Type(), v.Type().Field(i).Name, f.Kind())
		}
	}
}

// Every field of a judgment survives the codec: a field added to the
// types and not to the codec fails here (and such judgments would not be
// cached).
func TestMemoCodecRoundTrip(t *testing.T) {
	var pc verify.ProseCitation
	filled(t, reflect.ValueOf(&pc))
	var s memoSym
	filled(t, reflect.ValueOf(&s))
	var p probe
	filled(t, reflect.ValueOf(&p))
	e := memoEntry{Cites: []verify.ProseCitation{pc, {Citation: memfile.Citation{Path: "a"}}}, Syms: []memoSym{s}, Probes: []probe{p, {Path: "b"}}}
	back, err := decodeMemo(encodeMemo(&e))
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(back, e) {
		t.Fatalf("round trip:\n got %+v\nwant %+v", back, e)
	}
	if _, err := decodeMemo(append(encodeMemo(&e), 0)); err == nil {
		t.Error("trailing bytes decoded")
	}
}

func FuzzDecodeMemo(f *testing.F) {
	var pc verify.ProseCitation
	pc.Ref.Kind, pc.Reason = "path", "File a moved"
	f.Add(encodeMemo(&memoEntry{Cites: []verify.ProseCitation{pc}, Syms: []memoSym{{Name: "x"}}, Probes: []probe{{Path: "a", OK: true}}}))
	f.Add([]byte{})
	f.Fuzz(func(t *testing.T, b []byte) {
		m, err := decodeMemo(b)
		if err != nil {
			return
		}
		again, err := decodeMemo(encodeMemo(&m))
		if err != nil || !reflect.DeepEqual(again, m) {
			t.Fatalf("%q: decoded %+v, encoded and decoded again %+v (%v)", b, m, again, err)
		}
	})
}
