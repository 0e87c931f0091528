{{/*
A map rendered as a TOML document: scalars and lists of scalars as `key = value`, maps as
[tables], non-empty lists of maps as [[arrays of tables]], maps inside other lists as inline tables.
Integral numbers are written as integers (Helm reads YAML numbers as floats, and its own toToml
writes 25 as 25.0 and 10485760 as 1.048576e+07); null values are left out, as TOML has none.
Call: (dict "table" $map "path" "")
*/}}
{{- define "switchboard.toml" -}}
{{- $path := .path }}
{{- range $key, $value := .table }}
{{- if not (or (kindIs "invalid" $value) (kindIs "map" $value) (include "switchboard.toml.isTableArray" $value)) }}
{{ include "switchboard.toml.key" $key }} = {{ include "switchboard.toml.value" $value }}
{{- end }}
{{- end }}
{{- range $key, $value := .table }}
{{- $child := include "switchboard.toml.key" $key }}
{{- if $path }}{{ $child = printf "%s.%s" $path $child }}{{ end }}
{{- if kindIs "map" $value }}

[{{ $child }}]
{{- include "switchboard.toml" (dict "table" $value "path" $child) }}
{{- else if include "switchboard.toml.isTableArray" $value }}
{{- range $item := $value }}

[[{{ $child }}]]
{{- include "switchboard.toml" (dict "table" $item "path" $child) }}
{{- end }}
{{- end }}
{{- end }}
{{- end }}

{{- define "switchboard.toml.isTableArray" -}}
{{- if and (kindIs "slice" .) (gt (len .) 0) }}
{{- $allMaps := true }}
{{- range . }}{{ if not (kindIs "map" .) }}{{ $allMaps = false }}{{ end }}{{ end }}
{{- if $allMaps }}true{{ end }}
{{- end }}
{{- end }}

{{- define "switchboard.toml.key" -}}
{{- if regexMatch "^[A-Za-z0-9_-]+$" . }}{{ . }}{{ else }}{{ toJson . }}{{ end }}
{{- end }}

{{- define "switchboard.toml.value" -}}
{{- if kindIs "string" . }}
{{- toJson . }}
{{- else if kindIs "bool" . }}
{{- . }}
{{- else if or (kindIs "float64" .) (kindIs "float32" .) }}
{{- if eq (float64 .) (floor .) }}{{ int64 . }}{{ else }}{{ . }}{{ end }}
{{- else if or (kindIs "int" .) (kindIs "int64" .) (kindIs "int32" .) (kindIs "uint64" .) }}
{{- . }}
{{- else if kindIs "slice" . }}
{{- $items := list }}
{{- range . }}{{ $items = append $items (include "switchboard.toml.value" .) }}{{ end }}
{{- printf "[%s]" (join ", " $items) }}
{{- else if kindIs "map" . }}
{{- $pairs := list }}
{{- range $key, $value := . }}
{{- if not (kindIs "invalid" $value) }}{{ $pairs = append $pairs (printf "%s = %s" (include "switchboard.toml.key" $key) (include "switchboard.toml.value" $value)) }}{{ end }}
{{- end }}
{{- if $pairs }}{{ printf "{ %s }" (join ", " $pairs) }}{{ else }}{}{{ end }}
{{- else }}
{{- fail (printf "config: %v cannot be written in TOML (a null inside a list?)" .) }}
{{- end }}
{{- end }}
